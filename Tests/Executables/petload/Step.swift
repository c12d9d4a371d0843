import DBusKit

/// One planned call with its predicted outcome.
struct Step {
    enum Kind: String {
        /// A read (entry, list, ping): no change.
        case read
        /// A change predicted to succeed.
        case mutation
        /// A call predicted to be rejected with an error: it must change nothing.
        case rejected
    }

    /// What the reply must be.
    enum Expected {
        /// Success, with a check of the reply's arguments (nil when they are as predicted).
        case reply(([DBusValue]) -> String?)
        /// This error name.
        case error(String)
    }

    var kind: Kind
    var call: Call
    var expected: Expected
    /// The model once the mutation is applied (the oracle's prediction).
    var after: Model? = nil
    /// For an added task: its title (the id comes from the reply, or from the store after a crash).
    var addedTitle: String? = nil

    /// A short description for failure messages.
    var label: String {
        let shown = call.arguments.map { value -> String in
            if case .string(let text) = value { return "\"\(text.prefix(40))\"" }
            return "\(value)"
        }
        return "\(call.member)(\(shown.joined(separator: ", ")))"
    }

    /// A read whose reply `check` judges.
    static func read(_ call: Call, _ check: @escaping ([DBusValue]) -> String?) -> Step {
        Step(kind: .read, call: call, expected: .reply(check))
    }

    /// A call predicted to fail with `error` and change nothing.
    static func rejected(_ call: Call, _ error: String) -> Step {
        Step(kind: .rejected, call: call, expected: .error(error))
    }

    /// A mutation predicted to reply `reply` exactly and leave the model as `after`.
    static func mutation(_ call: Call, reply: [DBusValue], after: Model) -> Step {
        Step(
            kind: .mutation, call: call,
            expected: .reply { got in got == reply ? nil : "expected reply \(reply), got \(got)" }, after: after)
    }
}
