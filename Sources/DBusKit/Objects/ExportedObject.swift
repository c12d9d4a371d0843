/// An object exported on a connection: its path, its interfaces and its introspection XML.
///
/// `org.freedesktop.DBus.Introspectable` serves ``introspectionXML``; `org.freedesktop.DBus.Properties`
/// serves the properties declared on the interfaces; `org.freedesktop.DBus.Peer` is answered by libdbus
/// itself. Every method call to the object gets exactly one reply (none when the caller asked for none).
public final class ExportedObject {
    /// What a method or property read answers with: values to encode, or a body already encoded.
    public enum Reply {
        /// Values, checked and encoded for this reply.
        case values([DBusValue])
        /// A body encoded earlier, copied into the reply as it is.
        case encoded(EncodedBody)
        /// Nothing now: the handler took the call's ``PendingReply`` (``MethodCall/deferReply()``)
        /// and answers through it later.
        case deferred
    }

    /// A method: its name, its signatures, and the handler that returns the reply's values or throws a
    /// ``DBusError`` (any other error becomes `org.freedesktop.DBus.Error.Failed`).
    public struct Method {
        /// The member name.
        public var name: String
        /// The input signature the call must have exactly; nil accepts any arguments.
        public var inSignature: String?
        /// The output signature the handler's values must have; nil accepts any.
        public var outSignature: String?
        /// Computes the reply.
        public var handler: (MethodCall) throws -> Reply

        /// Declares a method.
        public init(
            _ name: String, in inSignature: String? = "", out outSignature: String? = "",
            handler: @escaping (MethodCall) throws -> [DBusValue]
        ) {
            self.name = name
            self.inSignature = inSignature
            self.outSignature = outSignature
            self.handler = { .values(try handler($0)) }
        }

        /// Declares a method whose reply body the owner keeps encoded (e.g. until its data changes).
        public init(
            _ name: String, in inSignature: String? = "", out outSignature: String,
            encoded: @escaping (MethodCall) throws -> EncodedBody
        ) {
            self.name = name
            self.inSignature = inSignature
            self.outSignature = outSignature
            self.handler = { .encoded(try encoded($0)) }
        }

        /// Declares a method whose handler returns any ``Reply``, ``Reply/deferred`` included.
        public init(
            _ name: String, in inSignature: String? = "", out outSignature: String?,
            reply: @escaping (MethodCall) throws -> Reply
        ) {
            self.name = name
            self.inSignature = inSignature
            self.outSignature = outSignature
            self.handler = reply
        }
    }

    /// A property: its type, whether it can be set, and the closures that read and write it.
    public struct Property {
        /// Read-only or read-write.
        public enum Access: Sendable {
            /// `Set` answers `PropertyReadOnly`.
            case read
            /// `Set` calls the setter.
            case readWrite
        }

        /// The property name.
        public var name: String
        /// The declared type, e.g. `u` or `a{sv}`.
        public var signature: String
        /// Read-only or read-write.
        public var access: Access
        /// Returns the current value (of type ``signature``).
        public var get: () throws -> DBusValue
        /// Receives the variant's contents, unchecked (it may accept more than one type); throws a
        /// ``DBusError`` such as `InvalidArgs` to reject the value.
        public var set: ((DBusValue) throws -> Void)?
        /// When true, a successful `Set` emits `PropertiesChanged` with the getter's new value.
        public var emitsChangedOnSet: Bool
        /// When set, `Properties.Get` replies with this body (a `v` holding the value) instead of
        /// encoding ``get``'s value; `GetAll` and `PropertiesChanged` still read ``get``.
        public var encodedGet: (() throws -> EncodedBody)?

        /// Declares a read-only property.
        public init(_ name: String, signature: String, get: @escaping () throws -> DBusValue) {
            self.name = name
            self.signature = signature
            self.access = .read
            self.get = get
            self.set = nil
            self.emitsChangedOnSet = false
        }

        /// Declares a read-write property.
        public init(
            _ name: String, signature: String, emitsChangedOnSet: Bool = true,
            get: @escaping () throws -> DBusValue, set: @escaping (DBusValue) throws -> Void
        ) {
            self.name = name
            self.signature = signature
            self.access = .readWrite
            self.get = get
            self.set = set
            self.emitsChangedOnSet = emitsChangedOnSet
        }
    }

    /// An interface: a name, its methods and its properties. Signals need no declaration to be sent;
    /// they are described in the introspection XML.
    public struct Interface {
        /// The interface name.
        public var name: String
        /// The methods, by name.
        public var methods: [String: Method]
        /// The properties, in declaration order.
        public var properties: [Property]

        /// Declares an interface.
        public init(_ name: String, methods: [Method] = [], properties: [Property] = []) {
            self.name = name
            self.methods = Dictionary(methods.map { ($0.name, $0) }, uniquingKeysWith: { _, last in last })
            self.properties = properties
        }

        /// The property called `name`, if declared.
        public func property(named name: String) -> Property? {
            properties.first { $0.name == name }
        }
    }

    /// The object path.
    public let path: String
    /// The interfaces, in order.
    public let interfaces: [Interface]
    /// The reply to `Introspect`.
    public let introspectionXML: String
    /// Runs once before each method call to the object is handled, whatever its interface (e.g. to
    /// bring the owner's state up to date). Signals it emits go out before the call's reply; those
    /// the handler emits go out after it.
    public let prepare: ((Message) -> Void)?

    /// Creates an object. Throws `InvalidArgs` for an invalid path, interface or member name.
    /// The longest string argument a call to this object is read with, in bytes: a longer one
    /// reaches its handler as its first `stringLimit + 1` bytes, never whole (petprogress(7) §6:
    /// every argument measured before it is copied). Unbounded unless the owner sets it.
    public var stringLimit: Int = .max
    /// How many values one call's arguments may hold (``Message/arguments(budget:stringLimit:)``).
    public var valueBudget: Int = Message.valueBudget

    public init(
        path: String, interfaces: [Interface], introspectionXML: String, prepare: ((Message) -> Void)? = nil
    ) throws {
        try DBusNames.requireObjectPath(path)
        for interface in interfaces {
            try DBusNames.requireInterface(interface.name)
            for name in interface.methods.keys { try DBusNames.requireMember(name) }
            for property in interface.properties {
                try DBusNames.requireMember(property.name)
                guard DBusNames.isValidSingleSignature(property.signature) else {
                    throw DBusError.invalidArgs("Property \(property.name) has an invalid signature.")
                }
            }
        }
        self.path = path
        self.interfaces = interfaces
        self.introspectionXML = introspectionXML
        self.prepare = prepare
    }

    /// The interface called `name`, if exported.
    public func interface(named name: String) -> Interface? {
        interfaces.first { $0.name == name }
    }

    /// The method whose handler answers `message`; nil when something else does (another path, a
    /// standard interface, an unknown member, a wrong signature).
    public func method(calledBy message: Message) -> Method? {
        guard message.kind == .methodCall, message.path == path else { return nil }
        let member = message.member ?? ""
        switch message.interface {
        case IntrospectableInterface.name?, PropertiesInterface.name?, PeerInterface.name?: return nil
        case nil where member == "Introspect": return nil
        default: break
        }
        guard let method = method(member, interface: message.interface),
            method.inSignature.map({ $0 == message.signature }) ?? true
        else { return nil }
        return method
    }

    /// The method `member` of the interface called `interface`; with none named, of the first
    /// interface that declares it (the interface is optional in a call).
    func method(_ member: String, interface: String?) -> Method? {
        guard let interface else { return interfaces.lazy.compactMap { $0.methods[member] }.first }
        return self.interface(named: interface)?.methods[member]
    }
}
