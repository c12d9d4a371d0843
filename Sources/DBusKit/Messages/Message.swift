import CDBus

/// A D-Bus message: a method call, a reply, an error or a signal.
///
/// Wraps one libdbus reference, released exactly once when the message is freed.
public final class Message {
    /// The kind of message.
    public enum Kind: Sendable, Equatable {
        /// A method call.
        case methodCall
        /// A successful reply.
        case methodReturn
        /// An error reply.
        case error
        /// A signal.
        case signal
        /// Anything else (libdbus's "invalid" type).
        case invalid
    }

    let raw: OpaquePointer

    /// Takes over a reference the caller already owns (from a `dbus_message_new*` or a blocking call).
    init(owning raw: OpaquePointer) {
        self.raw = raw
    }

    /// Adds a reference to a message libdbus lends to a callback.
    init(borrowing raw: OpaquePointer) {
        self.raw = dbus_message_ref(raw)
    }

    deinit {
        dbus_message_unref(raw)
    }

    /// A method call to `member` on the object at `path`; `destination` and `interface` may be nil.
    public static func methodCall(
        destination: String?, path: String, interface: String?, member: String
    ) throws -> Message {
        if let destination { try DBusNames.requireBusName(destination) }
        try DBusNames.requireObjectPath(path)
        if let interface { try DBusNames.requireInterface(interface) }
        try DBusNames.requireMember(member)
        let raw = try LibDBus.allocated(
            dbus_message_new_method_call(destination, path, interface, member), "dbus_message_new_method_call")
        return Message(owning: raw)
    }

    /// A signal `name` of `interface`, sent from the object at `path`.
    public static func signal(path: String, interface: String, name: String) throws -> Message {
        try DBusNames.requireObjectPath(path)
        try DBusNames.requireInterface(interface)
        try DBusNames.requireMember(name)
        let raw = try LibDBus.allocated(dbus_message_new_signal(path, interface, name), "dbus_message_new_signal")
        return Message(owning: raw)
    }

    /// A successful reply to this method call, with `values` as its body.
    public func makeReply(_ values: [DBusValue] = []) throws -> Message {
        let raw = try LibDBus.allocated(dbus_message_new_method_return(self.raw), "dbus_message_new_method_return")
        let reply = Message(owning: raw)
        try reply.append(values)
        return reply
    }

    /// An error reply to this method call. An invalid error name becomes `Failed` rather than aborting.
    public func makeErrorReply(_ error: DBusError) throws -> Message {
        let name = DBusNames.isValidErrorName(error.name) ? error.name : DBusError.Name.failed
        // A NUL would cut the C string short; replace it rather than lose the rest of the sentence.
        let text = error.message.replacingNUL()
        let raw = try LibDBus.allocated(dbus_message_new_error(self.raw, name, text), "dbus_message_new_error")
        return Message(owning: raw)
    }

    /// The kind of message.
    public var kind: Kind {
        switch dbus_message_get_type(raw) {
        case DBUS_MESSAGE_TYPE_METHOD_CALL: .methodCall
        case DBUS_MESSAGE_TYPE_METHOD_RETURN: .methodReturn
        case DBUS_MESSAGE_TYPE_ERROR: .error
        case DBUS_MESSAGE_TYPE_SIGNAL: .signal
        default: .invalid
        }
    }

    /// The object path, for calls and signals.
    public var path: String? { LibDBus.string(dbus_message_get_path(raw)) }
    /// The interface, for calls (optional there) and signals.
    public var interface: String? { LibDBus.string(dbus_message_get_interface(raw)) }
    /// The method or signal name.
    public var member: String? { LibDBus.string(dbus_message_get_member(raw)) }
    /// The error name, for error replies.
    public var errorName: String? { LibDBus.string(dbus_message_get_error_name(raw)) }
    /// The unique name of the sender, when the message came through a bus.
    public var sender: String? { LibDBus.string(dbus_message_get_sender(raw)) }
    /// The destination bus name, if any.
    public var destination: String? { LibDBus.string(dbus_message_get_destination(raw)) }
    /// The signature of the body, e.g. `ss`; empty for no arguments.
    public var signature: String { LibDBus.string(dbus_message_get_signature(raw)) ?? "" }
    /// The serial number (0 until sent).
    public var serial: UInt32 { dbus_message_get_serial(raw) }
    /// The serial of the call this message replies to (0 if none).
    public var replySerial: UInt32 { dbus_message_get_reply_serial(raw) }
    /// False when the caller set NO_REPLY_EXPECTED.
    public var expectsReply: Bool { dbus_message_get_no_reply(raw) == 0 }

    /// The message's size on the wire as it stands (header and body, as libdbus marshals it); the
    /// bus adds the sender field in transit. Nil if libdbus runs out of memory.
    public var wireSize: Int? {
        var bytes: UnsafeMutablePointer<CChar>?
        var length: Int32 = 0
        guard dbus_message_marshal(raw, &bytes, &length) != 0 else { return nil }
        dbus_free(bytes)
        return Int(length)
    }

    /// The error this message carries, for error replies: its name and first string argument.
    public var error: DBusError? {
        guard kind == .error else { return nil }
        let text = (try? arguments())?.first?.stringValue ?? ""
        return DBusError(name: errorName ?? DBusError.Name.failed, message: text)
    }
}

extension String {
    /// The string with every NUL replaced by U+FFFD, so it survives a trip through a C string.
    func replacingNUL() -> String {
        guard utf8.contains(0) else { return self }
        return String(unicodeScalars.map { $0 == "\0" ? "\u{FFFD}" : Character($0) })
    }
}
