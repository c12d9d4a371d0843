import CDBus

/// Calls from callers whose answers fill the outgoing queue, kept in their order and answered in
/// turn as the queue empties (``Connection/limitQueuedBytesPerDestination(_:)``).
///
/// Up to ``callsPerCaller`` calls of one caller are kept whole, to be handled later as if they had
/// just come; past that, only the serial of each is kept, and it is answered `LimitsExceeded`.
/// Either way a caller's answers go out in the order of its calls.
struct ParkedCalls {
    /// Calls of one caller kept whole (as many as a client sends at once and waits for: a few
    /// reads in one round trip); beyond them only serials are kept, a few bytes each.
    static let callsPerCaller = 16

    enum Item {
        case call(Message, Connection.Registration)
        case refused(serial: UInt32)
    }

    private struct Queue {
        var items: [Item] = []
        var head = 0
        var calls = 0
    }

    private var queues: [String: Queue] = [:]
    /// The callers with calls kept, in the order they first had one (answered in turn).
    private(set) var callers: [String] = []

    var isEmpty: Bool { callers.isEmpty }

    func hasParked(_ caller: String) -> Bool { queues[caller] != nil }

    /// Keeps `call` from `caller` for later.
    mutating func park(_ call: Message, from caller: String, registration: Connection.Registration) {
        var queue = queues.removeValue(forKey: caller) ?? Queue()
        if queue.items.isEmpty { callers.append(caller) }
        if queue.calls < Self.callsPerCaller {
            queue.items.append(.call(call, registration))
            queue.calls += 1
        } else if call.expectsReply {
            queue.items.append(.refused(serial: call.serial))
        }
        queues[caller] = queue
    }

    /// The oldest item kept for `caller`, removed.
    mutating func next(for caller: String) -> Item? {
        guard var queue = queues.removeValue(forKey: caller), queue.head < queue.items.count else { return nil }
        let item = queue.items[queue.head]
        queue.items[queue.head] = .refused(serial: 0)  // lets go of the message
        queue.head += 1
        if case .call = item { queue.calls -= 1 }
        if queue.head == queue.items.count {
            callers.removeAll { $0 == caller }
        } else {
            if queue.head > 1024, queue.head * 2 > queue.items.count {
                queue.items.removeFirst(queue.head)
                queue.head = 0
            }
            queues[caller] = queue
        }
        return item
    }

    /// `LimitsExceeded` for the call with `serial` from `caller`, built without the call.
    static func refusal(to caller: String, serial: UInt32) throws -> Message {
        let reply = Message(
            owning: try LibDBus.allocated(dbus_message_new(DBUS_MESSAGE_TYPE_ERROR), "dbus_message_new"))
        try LibDBus.check(
            dbus_message_set_error_name(reply.raw, DBusError.Name.limitsExceeded), "dbus_message_set_error_name")
        try LibDBus.check(dbus_message_set_reply_serial(reply.raw, serial), "dbus_message_set_reply_serial")
        try LibDBus.check(dbus_message_set_destination(reply.raw, caller), "dbus_message_set_destination")
        dbus_message_set_no_reply(reply.raw, 1)
        try reply.append([.string(ObjectDispatcher.limitsExceeded.message)])
        return reply
    }
}
