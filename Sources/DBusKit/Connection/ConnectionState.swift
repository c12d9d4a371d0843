import CDBus

/// The per-connection state libdbus's filter callback sees: disconnection and signal subscriptions.
///
/// libdbus keeps one retained reference to it as filter data and releases it when the connection is
/// finalized; the ``Connection`` holds the other.
final class ConnectionState {
    var disconnected = false
    var disconnectHandlers: [() -> Void] = []
    /// Who hears of the failures no caller can be told of (``Connection/onFailure(_:)``).
    var failureHandlers: [(DBusError) -> Void] = []
    var subscriptions: [Int: (MatchRule, (Message) -> Void)] = [:]
    /// The names subscriptions expect signals from, each with its current unique owner (nil: none),
    /// kept by the bus's `NameOwnerChanged` (``followOwner(_:)``).
    var owners: [String: String?] = [:]
    var nextSubscriptionID = 1
    var unknownObjectFallbackInstalled = false
    /// While a method handler runs: the signals it sent, to go out after its reply.
    var heldSignals: [Message]?
    /// Set by a handler that took its call's reply (``MethodCall/deferReply()``); reset by the dispatcher.
    var replyDeferred = false
    /// Who sees each incoming message first (``Connection/onIncoming(_:)``).
    var incomingHandlers: [(Message) -> Void] = []
    /// Who hears that the incoming queue is drained (``Connection/onDrained(_:)``).
    var drainedHandlers: [() -> Void] = []
    /// The bytes a caller's answers may hold in the outgoing queue before its calls are kept for
    /// later (``Connection/limitQueuedBytesPerDestination(_:)``); nil: no limit, nothing recorded.
    var queuedBytesLimit: Int?
    /// Whose bytes the outgoing queue holds, while a limit is set.
    var ledger = OutgoingLedger()
    /// Calls kept until their callers' answers have gone out.
    var parked = ParkedCalls()

    /// Runs `body`, handing a failure to the failure handlers: for libdbus calls made inside
    /// libdbus's callbacks and the event loop, where nothing can be thrown to a caller.
    func reporting(_ body: () throws -> Void) {
        do {
            try body()
        } catch {
            report(ObjectDispatcher.asDBusError(error))
        }
    }

    /// Records a followed name's new owner from the bus's `NameOwnerChanged` (the bus's own, by
    /// sender, path, interface, member and signature), before any subscription sees the signal.
    func followOwner(_ message: Message) {
        guard !owners.isEmpty, message.sender == MatchRule.busName, message.path == "/org/freedesktop/DBus",
            message.interface == MatchRule.busName, message.member == "NameOwnerChanged", message.signature == "sss",
            let name = (try? message.argument(at: 0))?.stringValue, owners[name] != nil,
            let owner = (try? message.argument(at: 2))?.stringValue
        else { return }
        owners[name] = owner.isEmpty ? .some(nil) : owner
    }

    /// Queues `message` on `connection` (from inside a libdbus callback, where ``Connection/send(_:)``'s
    /// held-signal rule must not apply), recording its bytes for its destination while a limit is
    /// set; `FALSE` from libdbus is out of memory.
    func send(_ message: Message, on connection: OpaquePointer) throws {
        guard queuedBytesLimit != nil else { return try ObjectDispatcher.send(message, on: connection) }
        ledger.settle(outgoing: Int(dbus_connection_get_outgoing_size(connection)))
        try ObjectDispatcher.send(message, on: connection)
        ledger.record(message.destination ?? "", outgoing: Int(dbus_connection_get_outgoing_size(connection)))
    }

    /// Keeps `call` for later when its caller's answers fill the queue past the limit, or when
    /// calls of that caller are already kept (its answers keep their order). True when kept.
    func park(_ call: Message, _ registration: Connection.Registration, on connection: OpaquePointer) -> Bool {
        guard let limit = queuedBytesLimit, let caller = call.sender else { return false }
        ledger.settle(outgoing: Int(dbus_connection_get_outgoing_size(connection)))
        guard parked.hasParked(caller) || ledger.queued(to: caller) >= limit else { return false }
        parked.park(call, from: caller, registration: registration)
        return true
    }

    /// Answers kept calls in turn, one per caller at a time, while the caller's answers and the
    /// whole queue are short: whoever reads its replies gets them at once, whoever does not waits
    /// for its own.
    func releaseParked(on connection: OpaquePointer) {
        guard let limit = queuedBytesLimit else { return }
        var released = true
        while released, !parked.isEmpty {
            released = false
            for caller in parked.callers {
                let outgoing = Int(dbus_connection_get_outgoing_size(connection))
                ledger.settle(outgoing: outgoing)
                guard outgoing < 2 * limit, ledger.queued(to: caller) < limit, let item = parked.next(for: caller)
                else { continue }
                released = true
                switch item {
                case .call(let call, let registration): Connection.answer(call, registration, on: connection)
                case .refused(let serial):
                    reporting { try send(ParkedCalls.refusal(to: caller, serial: serial), on: connection) }
                }
            }
        }
    }

    /// Hands `failure` to the failure handlers.
    func report(_ failure: DBusError) {
        for handler in failureHandlers { handler(failure) }
    }

    /// Handles one incoming message before the object tree sees it.
    func filter(_ message: Message) -> Bool {
        for handler in incomingHandlers { handler(message) }
        if message.kind == .signal, message.interface == "org.freedesktop.DBus.Local",
            message.member == "Disconnected"
        {
            disconnected = true
            let handlers = disconnectHandlers
            disconnectHandlers.removeAll()
            for handler in handlers { handler() }
            return true
        }
        if message.kind == .signal {
            followOwner(message)
            // Handlers may unsubscribe while we iterate; work on a snapshot in subscription order.
            for (id, entry) in subscriptions.sorted(by: { $0.key < $1.key })
            where subscriptions[id] != nil
                && entry.0.matches(message, owner: entry.0.followedName.flatMap { owners[$0] ?? nil })
            {
                entry.1(message)
            }
        }
        return false  // Let other filters and the object tree see it too.
    }
}

extension Connection {
    /// Adds the filter that detects disconnection and delivers subscribed signals.
    static func installFilter(_ raw: OpaquePointer, _ state: ConnectionState) -> dbus_bool_t {
        let data = Unmanaged.passRetained(state).toOpaque()
        let ok = dbus_connection_add_filter(
            raw,
            { _, message, data in
                guard let message, let data else { return DBUS_HANDLER_RESULT_NOT_YET_HANDLED }
                let state = Unmanaged<ConnectionState>.fromOpaque(data).takeUnretainedValue()
                let handled = state.filter(Message(borrowing: message))
                return handled ? DBUS_HANDLER_RESULT_HANDLED : DBUS_HANDLER_RESULT_NOT_YET_HANDLED
            },
            data,
            { data in
                // libdbus frees filter data exactly once, when the filter or the connection goes away.
                if let data { Unmanaged<ConnectionState>.fromOpaque(data).release() }
            })
        if ok == 0 { Unmanaged<ConnectionState>.fromOpaque(data).release() }
        return ok
    }
}
