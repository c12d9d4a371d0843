extension Connection {
    /// Calls `handler` with whether `name` has an owner now, each time the bus says it changed: a
    /// `NameOwnerChanged` believed only from the bus itself (the rule names it as the sender) and
    /// read only with its own signature.
    @discardableResult
    public func onNameOwnerChanged(_ name: String, _ handler: @escaping (_ present: Bool) -> Void) throws
        -> Subscription
    {
        let rule = MatchRule(
            sender: MatchRule.busName, path: "/org/freedesktop/DBus", interface: MatchRule.busName,
            member: "NameOwnerChanged", arg0: name)
        return try subscribe(rule) { message in
            guard message.signature == "sss" else { return }
            handler(!((try? message.argument(at: 2))?.stringValue ?? "").isEmpty)
        }
    }
}
