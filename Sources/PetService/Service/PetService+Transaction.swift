import DBusKit

/// Group commit: calls queued behind one another are decoded and applied to the world in memory
/// one after another, their replies deferred and their signals held; when the queue drains (or
/// before anything that must not wait) one save makes them durable, then the replies and signals
/// go out in order. A lone call is answered at once, as before.
extension PetService {
    /// What a call does once its arguments are decoded: the handler over them, giving the reply.
    typealias Command = () throws -> ExportedObject.Reply

    /// Answers a call to one of the interface's methods: `decode` gives its command, which is run at
    /// once when the call is alone, else held in the open transaction (opened when more messages
    /// wait behind this one).
    func answer(_ call: MethodCall, _ decode: () throws -> Command) throws -> ExportedObject.Reply {
        guard transaction != nil || environment.callsQueued() else { return try decode()() }
        let open = transaction ?? Transaction(durable: world)
        transaction = open
        var command: Command?
        heldSignals = []
        let outcome = Result { () throws -> ExportedObject.Reply in
            let decoded = try decode()
            command = decoded
            return try decoded()
        }
        open.calls.append(
            .init(reply: call.deferReply(), outcome: outcome, command: command, signals: heldSignals ?? []))
        heldSignals = nil
        return .deferred
    }

    /// Before an incoming message: ends the open transaction unless `message` is a call it can hold
    /// (`reaches` it: a method of the object, with its signature), so that nothing answered or
    /// caused by another message overtakes the held replies.
    func receive(_ message: Message, reaches object: ExportedObject) {
        guard transaction != nil, object.method(calledBy: message) == nil else { return }
        commit()
    }

    /// Ends the open transaction, if any: one save of its changes, then each held reply followed by
    /// its call's signals, in order. When the save fails, memory goes back to the world on disk and
    /// each call's already-decoded command runs again alone (its own refresh and save), so that each
    /// gets the answer it would have got alone (`StorageFailure` for a change). A state file
    /// replaced without its directory synced counts as a failure too: the calls run again write
    /// their own states over it.
    func commit() {
        guard let open = transaction else { return }
        transaction = nil
        if open.changed {
            do {
                try environment.save(world)
            } catch {
                log("could not save a batch of changes (\(error)); handling them again one at a time")
                world = open.durable
                for call in open.calls { runAlone(call) }
                return
            }
        }
        for call in open.calls {
            call.reply.send(call.outcome)
            for signal in call.signals { signals.send(signal) }
        }
    }

    /// Runs a transaction call's command again as if the call had come alone: its refresh, its change
    /// saved on its own, its reply, then its signals. A call whose arguments did not decode gets
    /// the same error again.
    private func runAlone(_ call: Transaction.Call) {
        refresh()
        heldSignals = []
        call.reply.send(call.command.map { command in Result { try command() } } ?? call.outcome)
        let caused = heldSignals ?? []
        heldSignals = nil
        for signal in caused { signals.send(signal) }
    }
}
