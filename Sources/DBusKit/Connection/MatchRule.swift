/// A signal match rule: which signals a subscription receives.
///
/// Rendered into the bus's match-rule syntax for `AddMatch`, and also checked locally so each
/// subscription only sees its own signals.
public struct MatchRule: Equatable, Sendable {
    /// Sender bus name: a unique name (`:1.5`), the bus's, or a well-known name, whose current
    /// owner the connection follows (``Connection/subscribe(_:handler:)``).
    public var sender: String?
    /// Object path.
    public var path: String?
    /// Interface.
    public var interface: String?
    /// Signal name.
    public var member: String?
    /// The signal's first argument, a string (e.g. the name in `NameOwnerChanged`).
    public var arg0: String?

    /// A rule for signals; nil fields match anything.
    public init(
        sender: String? = nil, path: String? = nil, interface: String? = nil, member: String? = nil,
        arg0: String? = nil
    ) {
        self.sender = sender
        self.path = path
        self.interface = interface
        self.member = member
        self.arg0 = arg0
    }

    /// Throws `InvalidArgs` unless every given field is a valid name of its kind.
    func validate() throws {
        if let sender { try DBusNames.requireBusName(sender) }
        if let path { try DBusNames.requireObjectPath(path) }
        if let interface { try DBusNames.requireInterface(interface) }
        if let member { try DBusNames.requireMember(member) }
        // The rule syntax has no escape inside quotes; a value with a quote could not be matched.
        if let arg0, arg0.contains("'") || !DBusNames.noNUL(arg0) {
            throw DBusError.invalidArgs("A match rule's arg0 cannot contain a quote or NUL.")
        }
    }

    /// The rule in the bus's syntax, e.g. `type='signal',interface='org.example.Thing1'`.
    /// Valid names contain no quotes or commas, and `arg0` is quoted and has none (``validate()``).
    public var ruleString: String {
        var parts = ["type='signal'"]
        if let sender { parts.append("sender='\(sender)'") }
        if let path { parts.append("path='\(path)'") }
        if let interface { parts.append("interface='\(interface)'") }
        if let member { parts.append("member='\(member)'") }
        if let arg0 { parts.append("arg0='\(arg0)'") }
        return parts.joined(separator: ",")
    }

    /// True when `message` is a signal this rule selects. A rule's sender is compared with the
    /// signal's as the bus sets it: a unique name as it is, the bus's own name
    /// (`org.freedesktop.DBus`) as it is, any other name through `owner`, its current unique owner
    /// (nil: no owner, so no signal). A unicast signal reaches its destination whatever the rules
    /// on the bus say; this check is what keeps another connection from speaking for the sender.
    /// Only the headers are read, and the first argument only when `arg0` asks for it.
    public func matches(_ message: Message, owner: String? = nil) -> Bool {
        guard message.kind == .signal else { return false }
        if let sender {
            let expected = sender.hasPrefix(":") || sender == Self.busName ? sender : owner
            guard let expected, message.sender == expected else { return false }
        }
        if let path, message.path != path { return false }
        if let interface, message.interface != interface { return false }
        if let member, message.member != member { return false }
        if let arg0 {
            guard message.signature.hasPrefix("s"), (try? message.argument(at: 0))?.stringValue == arg0 else {
                return false
            }
        }
        return true
    }

    /// The bus's own name: the sender of the signals the bus itself emits.
    public static let busName = "org.freedesktop.DBus"

    /// The sender, when it is a name whose owner must be followed (neither unique nor the bus's).
    var followedName: String? {
        guard let sender, !sender.hasPrefix(":"), sender != Self.busName else { return nil }
        return sender
    }
}
