import CDBus

/// A token for ``Connection/unsubscribe(_:)``.
public struct Subscription: Hashable, Sendable {
    let id: Int
}

extension Connection {
    /// Sends a method call and blocks until its reply; an error reply is thrown as a ``DBusError``
    /// carrying the remote error name (`NoReply` on timeout). `timeout` nil means libdbus's default (25 s).
    ///
    /// Messages that arrive meanwhile are queued and dispatched by the next event-loop iteration.
    public func call(_ message: Message, timeout: Duration? = nil) throws -> Message {
        guard isConnected else { throw DBusError.disconnected }
        let milliseconds = timeout.map(Self.milliseconds) ?? DBUS_TIMEOUT_USE_DEFAULT
        let reply = try LibDBus.withError {
            dbus_connection_send_with_reply_and_block(raw, message.raw, milliseconds, $0)
        }
        return Message(owning: try LibDBus.allocated(reply, "dbus_connection_send_with_reply_and_block"))
    }

    /// Sends every call at once, then waits for each reply in order: the calls cross the bus
    /// together, so several reads cost about one round trip instead of one each. A reply may be an
    /// error reply (see ``Message/error``); libdbus's `NoReply` stands in for one that timed out.
    public func call(all messages: [Message], timeout: Duration? = nil) throws -> [Message] {
        guard isConnected else { throw DBusError.disconnected }
        let milliseconds = timeout.map(Self.milliseconds) ?? DBUS_TIMEOUT_USE_DEFAULT
        var pending: [OpaquePointer] = []
        defer { for call in pending { dbus_pending_call_unref(call) } }
        for message in messages {
            var call: OpaquePointer?
            try LibDBus.check(
                dbus_connection_send_with_reply(raw, message.raw, &call, milliseconds),
                "dbus_connection_send_with_reply")
            pending.append(try LibDBus.allocated(call, "dbus_connection_send_with_reply"))
        }
        return try pending.map { call in
            dbus_pending_call_block(call)
            return Message(
                owning: try LibDBus.allocated(dbus_pending_call_steal_reply(call), "dbus_pending_call_steal_reply"))
        }
    }

    /// Calls `member` and returns the reply's arguments. Throws ``DBusError`` for error replies,
    /// timeouts, invalid names and a lost connection.
    public func call(
        destination: String, path: String, interface: String, member: String,
        arguments: [DBusValue] = [], timeout: Duration? = nil
    ) throws -> [DBusValue] {
        let message = try Message.methodCall(destination: destination, path: path, interface: interface, member: member)
        try message.append(arguments)
        return try call(message, timeout: timeout).arguments()
    }

    /// Reads a property through `org.freedesktop.DBus.Properties.Get`, unwrapped from its variant.
    public func getProperty(
        destination: String, path: String, interface: String, name: String, timeout: Duration? = nil
    ) throws -> DBusValue {
        let reply = try call(
            destination: destination, path: path, interface: PropertiesInterface.name, member: "Get",
            arguments: [.string(interface), .string(name)], timeout: timeout)
        guard let value = reply.first?.variantValue else {
            throw DBusError.invalidArgs("Properties.Get did not return a variant.")
        }
        return value
    }

    /// Sets a property through `org.freedesktop.DBus.Properties.Set`.
    public func setProperty(
        destination: String, path: String, interface: String, name: String, value: DBusValue,
        timeout: Duration? = nil
    ) throws {
        _ = try call(
            destination: destination, path: path, interface: PropertiesInterface.name, member: "Set",
            arguments: [.string(interface), .string(name), .variant(value)], timeout: timeout)
    }

    /// Adds `rule` on the bus and runs `handler` for each matching signal, from the event loop.
    /// A well-known sender is followed: its owner is asked for now and kept from the bus's
    /// `NameOwnerChanged`, and only signals from that owner match.
    public func subscribe(_ rule: MatchRule, handler: @escaping (Message) -> Void) throws -> Subscription {
        try rule.validate()
        if let name = rule.followedName, state.owners[name] == nil { try follow(name) }
        let ruleString = rule.ruleString
        _ = try LibDBus.withError { dbus_bus_add_match(raw, ruleString, $0) }
        let id = state.nextSubscriptionID
        state.nextSubscriptionID += 1
        state.subscriptions[id] = (rule, handler)
        return Subscription(id: id)
    }

    /// Starts following `name`'s owner: the bus's `NameOwnerChanged` for it, then its owner now
    /// (a change in between is seen as a signal, after the answer).
    private func follow(_ name: String) throws {
        let changes = MatchRule(
            sender: MatchRule.busName, path: "/org/freedesktop/DBus", interface: MatchRule.busName,
            member: "NameOwnerChanged", arg0: name)
        _ = try LibDBus.withError { dbus_bus_add_match(raw, changes.ruleString, $0) }
        let owner: String?
        do {
            owner = try call(
                destination: MatchRule.busName, path: "/org/freedesktop/DBus", interface: MatchRule.busName,
                member: "GetNameOwner", arguments: [.string(name)]
            ).first?.stringValue
        } catch let error as DBusError where error.name == "org.freedesktop.DBus.Error.NameHasNoOwner" {
            owner = nil
        }
        state.owners[name] = .some(owner)
    }

    /// Removes a subscription and its match rule.
    public func unsubscribe(_ subscription: Subscription) throws {
        guard let (rule, _) = state.subscriptions.removeValue(forKey: subscription.id) else { return }
        let ruleString = rule.ruleString
        _ = try LibDBus.withError { dbus_bus_remove_match(raw, ruleString, $0) }
    }

    static func milliseconds(_ duration: Duration) -> Int32 {
        let (seconds, attoseconds) = duration.components
        let total = seconds * 1000 + attoseconds / 1_000_000_000_000_000
        return Int32(clamping: max(0, total))
    }
}

extension Connection {
    /// Sends a method call without blocking; `onReply` runs on the event loop with the reply (or
    /// the error reply, or libdbus's `NoReply` after `timeout`), in the order messages arrive, so a
    /// client can see whether the reply came before or after a signal.
    public func send(_ message: Message, timeout: Duration? = nil, onReply: @escaping (Message) -> Void) throws {
        guard isConnected else { throw DBusError.disconnected }
        var pending: OpaquePointer?
        let milliseconds = timeout.map(Self.milliseconds) ?? DBUS_TIMEOUT_USE_DEFAULT
        try LibDBus.check(
            dbus_connection_send_with_reply(raw, message.raw, &pending, milliseconds),
            "dbus_connection_send_with_reply")
        let call = try LibDBus.allocated(pending, "dbus_connection_send_with_reply")
        let box = Unmanaged.passRetained(ReplyHandler(onReply)).toOpaque()
        let ok = dbus_pending_call_set_notify(
            call,
            { call, data in
                guard let call, let data else { return }
                let handler = Unmanaged<ReplyHandler>.fromOpaque(data).takeUnretainedValue()
                if let reply = dbus_pending_call_steal_reply(call) { handler.body(Message(owning: reply)) }
            },
            box,
            // libdbus frees the notify data once, when the pending call is finalized.
            { data in if let data { Unmanaged<ReplyHandler>.fromOpaque(data).release() } })
        // The pending call holds what it needs; our reference is not.
        dbus_pending_call_unref(call)
        if ok == 0 {
            Unmanaged<ReplyHandler>.fromOpaque(box).release()
            throw DBusError.noMemory("dbus_pending_call_set_notify")
        }
    }
}

/// The closure a pending call's notify runs.
private final class ReplyHandler {
    let body: (Message) -> Void
    init(_ body: @escaping (Message) -> Void) { self.body = body }
}
