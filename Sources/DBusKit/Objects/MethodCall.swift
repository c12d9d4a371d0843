/// An incoming method call as a handler sees it: who called, what, and the decoded arguments.
///
/// The typed accessors throw `InvalidArgs`, which the dispatcher sends back as the reply.
public struct MethodCall {
    /// The message itself.
    public let message: Message
    /// The decoded arguments.
    public let arguments: [DBusValue]
    /// Where a deferred reply goes; nil for a call made in this process, not read from a connection.
    let origin: Origin?

    /// The connection a call came on and the method it reached, for ``PendingReply``.
    struct Origin {
        let connection: OpaquePointer
        let state: ConnectionState
        let method: String
        let outSignature: String?
    }

    init(message: Message, arguments: [DBusValue], origin: Origin? = nil) {
        self.message = message
        self.arguments = arguments
        self.origin = origin
    }

    /// The caller's unique bus name.
    public var sender: String? { message.sender }
    /// The object path called.
    public var path: String { message.path ?? "/" }
    /// The interface named by the caller (may be nil).
    public var interface: String? { message.interface }
    /// The method name.
    public var member: String { message.member ?? "" }

    /// Takes over answering this call: the dispatcher sends no reply (return ``ExportedObject/Reply/deferred``),
    /// and the owner answers later through the handle, exactly once.
    public func deferReply() -> PendingReply {
        origin?.state.replyDeferred = true
        return PendingReply(call: message, origin: origin)
    }

    /// The argument at `index`, or `InvalidArgs`.
    public func argument(_ index: Int) throws -> DBusValue {
        guard arguments.indices.contains(index) else {
            throw DBusError.invalidArgs("Missing argument \(index + 1).")
        }
        return arguments[index]
    }

    /// A string argument, or `InvalidArgs`.
    public func string(_ index: Int) throws -> String {
        try typed(index, "s") { $0.stringValue }
    }

    /// A boolean argument, or `InvalidArgs`.
    public func bool(_ index: Int) throws -> Bool {
        try typed(index, "b") { $0.boolValue }
    }

    /// An int32 argument, or `InvalidArgs`.
    public func int32(_ index: Int) throws -> Int32 {
        try typed(index, "i") { $0.int32Value }
    }

    /// A uint32 argument, or `InvalidArgs`.
    public func uint32(_ index: Int) throws -> UInt32 {
        try typed(index, "u") { $0.uint32Value }
    }

    /// An int64 argument, or `InvalidArgs`.
    public func int64(_ index: Int) throws -> Int64 {
        try typed(index, "x") { $0.int64Value }
    }

    /// A uint64 argument, or `InvalidArgs`.
    public func uint64(_ index: Int) throws -> UInt64 {
        try typed(index, "t") { $0.uint64Value }
    }

    /// A double argument, or `InvalidArgs`.
    public func double(_ index: Int) throws -> Double {
        try typed(index, "d") { $0.doubleValue }
    }

    /// The contents of a variant argument, or `InvalidArgs`.
    public func variant(_ index: Int) throws -> DBusValue {
        try typed(index, "v") { $0.variantValue }
    }

    private func typed<T>(_ index: Int, _ signature: String, _ extract: (DBusValue) -> T?) throws -> T {
        let value = try argument(index)
        guard let result = extract(value) else {
            throw DBusError.invalidArgs(
                "Argument \(index + 1) must be of type '\(signature)', not '\(value.signature)'.")
        }
        return result
    }
}
