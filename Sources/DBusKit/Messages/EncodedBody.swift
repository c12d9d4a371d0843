import CDBus

/// A reply body encoded once and sent many times: a method return that holds only the body,
/// copied (`dbus_message_copy`: the header and body bytes, no re-encoding and no validation) and
/// addressed to each caller it answers.
public final class EncodedBody {
    private let message: Message
    /// The body's signature, e.g. `a{sv}`.
    public let signature: String

    /// Encodes a body with `fill`. Throws `NoMemory` if libdbus could not allocate.
    public init(_ fill: (inout BodyWriter) -> Void) throws {
        message = Message(
            owning: try LibDBus.allocated(dbus_message_new(DBUS_MESSAGE_TYPE_METHOD_RETURN), "dbus_message_new"))
        var writer = BodyWriter(appendingTo: message)
        fill(&writer)
        if writer.failed { throw DBusError.noMemory("dbus_message_iter_append_basic") }
        signature = message.signature
    }

    /// The body's values, read back (for clients and tests; the daemon sends the bytes).
    public func values() throws -> [DBusValue] { try message.arguments() }

    /// The reply to `call` carrying this body.
    func reply(to call: Message) throws -> Message {
        let reply = Message(owning: try LibDBus.allocated(dbus_message_copy(message.raw), "dbus_message_copy"))
        try LibDBus.check(dbus_message_set_reply_serial(reply.raw, call.serial), "dbus_message_set_reply_serial")
        if let sender = dbus_message_get_sender(call.raw) {
            try LibDBus.check(dbus_message_set_destination(reply.raw, sender), "dbus_message_set_destination")
        }
        return reply
    }
}
