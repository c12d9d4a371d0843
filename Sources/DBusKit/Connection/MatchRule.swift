/// A signal match rule: which signals a subscription receives.
///
/// Rendered into the bus's match-rule syntax for `AddMatch`, and also checked locally so each
/// subscription only sees its own signals.
public struct MatchRule: Equatable, Sendable {
    /// Sender bus name. The bus matches well-known names; locally only a unique name (`:1.5`) is compared.
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

    /// True when `message` is a signal this rule selects.
    public func matches(_ message: Message) -> Bool {
        guard message.kind == .signal else { return false }
        if let sender, sender.hasPrefix(":"), message.sender != sender { return false }
        if let path, message.path != path { return false }
        if let interface, message.interface != interface { return false }
        if let member, message.member != member { return false }
        if let arg0, (try? message.arguments())?.first?.stringValue != arg0 { return false }
        return true
    }
}
