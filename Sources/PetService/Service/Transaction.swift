import DBusKit
import PetCore

/// Calls queued behind one another, answered together (group commit): their changes adopted in
/// memory, their replies and signals held until one save makes the changes durable
/// (`PetService.commit`).
final class Transaction {
    /// One call of the transaction: how to answer it, what it answered, and how to run it again alone.
    struct Call {
        let reply: PendingReply
        let outcome: Result<ExportedObject.Reply, any Error>
        /// The call's handler over its already-decoded arguments; nil when they did not decode.
        let command: PetService.Command?
        /// The signals it caused, to follow its reply.
        let signals: [ServiceSignals.Signal]
    }

    /// The world on disk when the transaction opened.
    let durable: PetWorld
    /// Whether a change was adopted since.
    var changed = false
    /// The calls held, in the order they came.
    var calls: [Call] = []

    init(durable: PetWorld) {
        self.durable = durable
    }
}
