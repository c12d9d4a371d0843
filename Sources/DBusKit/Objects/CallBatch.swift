import CDBus

/// A run of queued method calls to one object, answered together (group commit).
///
/// When a call to an object with ``ExportedObject/Batching`` is dispatched while more messages
/// wait in the incoming queue, the connection opens a batch: that call and the calls after it
/// are handled as usual, but every reply and signal they cause is held, in order, until the batch
/// ends — when the queue is drained, before any other kind of message is handled, or when the
/// owner asks (``Connection/endBatch()``). Then the object's `close` runs once (e.g. one save for
/// all of them) and the held messages go out in their original order; if `close` fails, they are
/// dropped and each call is handled again, one at a time, outside any batch.
final class CallBatch {
    /// The object whose calls the batch holds.
    let registration: Connection.Registration
    /// The calls handled so far, in order (references kept for handling them again).
    var calls: [Message] = []
    /// Their replies and signals, in the order they would have been sent.
    var outgoing: [Message] = []

    init(_ registration: Connection.Registration) {
        self.registration = registration
    }
}

extension ConnectionState {
    /// Queues `message` for sending, or holds it while a batch is open.
    func queue(_ message: Message, on connection: OpaquePointer) throws {
        if let batch {
            batch.outgoing.append(message)
            return
        }
        try ObjectDispatcher.send(message, on: connection)
    }

    /// Opens a batch for `registration` when its object takes batches, none is open, and more
    /// messages wait behind the one being dispatched (a lone call is handled exactly as before).
    func openBatchIfQueued(for registration: Connection.Registration, on connection: OpaquePointer) {
        guard batch == nil, let batching = registration.object.batching,
            dbus_connection_get_dispatch_status(connection) == DBUS_DISPATCH_DATA_REMAINS
        else { return }
        batch = CallBatch(registration)
        batching.open()
    }

    /// Ends the open batch, if any: the object's `close`, then the held replies and signals in
    /// order; or, when `close` fails, each held call handled again on its own.
    func endBatch(on connection: OpaquePointer) {
        guard let ended = batch else { return }
        batch = nil
        guard ended.registration.object.batching?.close() ?? true else {
            for call in ended.calls {
                _ = Connection.dispatch(call, to: ended.registration, on: connection, batching: false)
            }
            return
        }
        for message in ended.outgoing { reporting { try ObjectDispatcher.send(message, on: connection) } }
    }

    /// Ends the open batch before `message` when the batch cannot take it: anything but a method
    /// call to the batch's object (whose reply libdbus or another handler would send at once).
    func endBatch(before message: Message, on connection: OpaquePointer) {
        guard let batch else { return }
        if message.kind == .methodCall, message.path == batch.registration.object.path { return }
        endBatch(on: connection)
    }
}
