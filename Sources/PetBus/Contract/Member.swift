import DBusKit

extension PetBus {
    /// One method of the contract, typed: its name, its arguments and its reply, each with the
    /// coding the daemon and ``PetClient`` share. The signatures come from it; so does what the
    /// table check compares with the XML.
    public struct Member<Arguments, Reply>: Sendable {
        /// The member name.
        public let name: String
        /// The `in` arguments.
        public let arguments: BusFields<Arguments>
        /// The `out` arguments.
        public let reply: BusFields<Reply>

        init(_ name: String, in arguments: BusFields<Arguments>, out reply: BusFields<Reply>) {
            self.name = name
            self.arguments = arguments
            self.reply = reply
        }

        /// The signature a call must carry.
        public var inSignature: String { arguments.signature }
        /// The signature of the reply.
        public var outSignature: String { reply.signature }

        /// The method as the XML describes it.
        public var description: InterfaceDescription.Method {
            .init(
                name: name,
                args: arguments.fields.map { .init(name: $0.name, type: $0.type, direction: "in") }
                    + reply.fields.map { .init(name: $0.name, type: $0.type, direction: "out") })
        }
    }
}
