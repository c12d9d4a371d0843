import CDBus

/// The answer to a method call whose handler deferred it (``MethodCall/deferReply()``), sent when
/// the owner is ready: a reply or an error, exactly once.
///
/// Only the first ``send(_:)`` sends; a handle dropped unanswered answers `Failed`, so the caller
/// never waits for its timeout. Use it on the connection's thread.
public final class PendingReply {
    private let call: Message
    private let origin: MethodCall.Origin?
    /// True once the answer has been given.
    public private(set) var isSent = false

    init(call: Message, origin: MethodCall.Origin?) {
        self.call = call
        self.origin = origin
        // The connection must outlive the handle; released in deinit.
        if let origin { dbus_connection_ref(origin.connection) }
    }

    deinit {
        send(.failure(DBusError.failed("The call was dropped without an answer.")))
        if let origin { dbus_connection_unref(origin.connection) }
    }

    /// Sends the answer: the reply (checked against the method's declared output, as an immediate
    /// one is) or the error (a ``DBusError`` as it is, any other as `Failed`). Nothing when the
    /// caller asked for no reply. False, and nothing sent, when the answer was already given.
    @discardableResult
    public func send(_ outcome: Result<ExportedObject.Reply, any Error>) -> Bool {
        guard !isSent else { return false }
        isSent = true
        guard let origin, call.expectsReply else { return true }
        var checked = ObjectDispatcher.checked(outcome, method: origin.method, out: origin.outSignature)
        if case .success(.deferred) = checked { checked = .failure(.failed("A deferred reply cannot defer again.")) }
        origin.state.reporting {
            try origin.state.send(ObjectDispatcher.reply(to: call, with: checked), on: origin.connection)
        }
        return true
    }
}
