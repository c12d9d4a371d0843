/// What the introspection XML says about an interface, as comparable values: the shape the
/// table check compares the typed table with, member by member.
public struct InterfaceDescription: Equatable, Sendable {
    /// One `<arg>`: `direction` is `in` or `out` (a signal's are `out`).
    public struct Arg: Equatable, Sendable, CustomStringConvertible {
        public var name: String
        public var type: String
        public var direction: String
        public init(name: String, type: String, direction: String) {
            self.name = name
            self.type = type
            self.direction = direction
        }
        public var description: String { "\(direction) \(type) \(name)" }
    }

    /// A `<method>` or a `<signal>`.
    public struct Method: Equatable, Sendable {
        public var name: String
        public var args: [Arg]
        public init(name: String, args: [Arg]) {
            self.name = name
            self.args = args
        }
    }

    /// A `<property>`: `access` is `read` or `readwrite`.
    public struct Property: Equatable, Sendable {
        public var name: String
        public var type: String
        public var access: String
        public var annotations: [String: String]
        public init(name: String, type: String, access: String, annotations: [String: String]) {
            self.name = name
            self.type = type
            self.access = access
            self.annotations = annotations
        }
    }

    public var name: String
    public var methods: [Method]
    public var signals: [Method]
    public var properties: [Property]

    public init(name: String, methods: [Method], signals: [Method], properties: [Property]) {
        self.name = name
        self.methods = methods
        self.signals = signals
        self.properties = properties
    }
}
