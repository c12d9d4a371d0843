import DBusKit
import PetBus
import PetCore
import PetStore

/// A composed daemon: the service over its loaded store, exported on its bus connection under the
/// well-known name, brought up to date. `compose` builds it the one way, from a `Setup`:
/// the process's (`run`) or a test's. Running it (the event loop) is the caller's.
public final class Daemon {
    public let service: PetService
    public let connection: Connection
    let store: PetStore

    private init(service: PetService, connection: Connection, store: PetStore) {
        self.service = service
        self.connection = connection
        self.store = store
    }

    /// Why the daemon cannot start: the line to log and the exit status.
    public struct StartFailure: Error {
        public let message: String
        public let status: Int32

        init(_ message: String, status: Int32 = 1) {
            self.message = message
            self.status = status
        }
    }

    /// Opens, locks and loads the data directory, connects, makes the service, exports it and
    /// takes the bus name (objects before the name, so that a call sent as soon as the name is ours
    /// finds them), then runs the start-up refresh: only once the name is ours, as a second daemon
    /// on this bus must not touch its data. Throws
    /// `StartFailure` when another instance holds the data directory or the name, or the directory
    /// cannot be used; any other error when the bus cannot be reached.
    public static func compose(_ setup: Setup) throws -> Daemon {
        // A second daemon on this bus is refused before it opens (and so creates) anything: a data
        // directory of its own would be left behind otherwise. (Taking the name below still
        // decides a race between two starting at once.)
        // Without a bus, the data directory is still checked first: its refusal (78) says more.
        let connecting = Result { try setup.connect() }
        if case .success(let connection) = connecting, (try? connection.nameHasOwner(PetBus.name)) == true {
            connection.close()
            throw StartFailure("\(PetBus.name) is already owned on this bus: another petprogressd is running; exiting")
        }
        let (store, loaded) = try openStore(setup)
        let connection = try connecting.get()
        connection.onFailure { [log = setup.log] in log("D-Bus: \($0.message)") }
        let service = makeService(
            loaded: loaded, setup, serving: serviceEnvironment(setup, store, connection))
        try publish(service, on: connection)
        service.refresh(startingUp: true)
        return Daemon(service: service, connection: connection, store: store)
    }

    /// Gives up the name, the connection and the data directory (for a restart in the same process).
    public func close() {
        try? connection.releaseName(PetBus.name)
        connection.close()
        store.close()
    }

    /// Exports the object and hooks the service's transaction to the connection, then takes the
    /// bus name.
    static func publish(_ service: PetService, on connection: Connection) throws {
        let object = try service.exportedObject()
        try connection.export(object)
        // The transaction of queued calls ends before any message it cannot hold, and when the
        // incoming queue is drained.
        connection.onIncoming { [unowned service] in service.receive($0, reaches: object) }
        connection.onDrained { [unowned service] in service.commit() }
        OutgoingBurst.install(on: connection)
        do {
            try connection.requestName(PetBus.name)
        } catch {
            if case .taken = error {
                throw StartFailure(
                    "\(PetBus.name) is already owned on this bus: another petprogressd is running; exiting")
            }
            throw StartFailure("cannot own \(PetBus.name): \(error)")
        }
    }

    /// Opens and locks the data directory and loads it.
    static func openStore(_ setup: Setup) throws(StartFailure) -> (PetStore, Loaded) {
        let directory = setup.dataDirectory
        do {
            let store = try PetStore.open(directory: directory, notice: setup.log)
            return (store, try store.load(now: setup.now()))
        } catch {
            switch error.kind {
            case .locked:
                throw StartFailure("the data directory \(directory) is in use by another petprogressd; exiting")
            case .unsafe:
                // petprogress(7) §5: not retried by the unit, which stops at 78 (EX_CONFIG).
                throw StartFailure("cannot start: \(error.message)", status: 78)
            default:
                throw StartFailure("cannot open the data directory \(directory): \(error.message)")
            }
        }
    }

    /// The service over the loaded store: the local zone, the stage table in force, the icons.
    static func makeService(
        loaded: Loaded, _ setup: Setup, serving: PetService.Environment
    ) -> PetService {
        let local = serving.localZone()
        let (stages, stageProblem) = setup.stages()
        var problems = loaded.problems + [stageProblem].compactMap { $0 }
        if loaded.quarantinedTo == nil, let earlier = loaded.recovery, !earlier.acknowledged {
            // An earlier start's recovery, not yet acknowledged: still a problem to report.
            problems.append("\(earlier.sentence) Lost: \(earlier.lost).")
        }
        for problem in problems + [local.problem].compactMap({ $0 }) { setup.log(problem) }
        return PetService(
            world: loaded.world(now: serving.now(), zone: local.zone), zone: local, stages: stages,
            icons: setup.icons(stages), problems: problems, recovery: loaded.recovery, environment: serving)
    }

    /// What the service reaches: the store through `setup.write`, the signals and the
    /// incoming queue of `connection`, and the rest of `setup`.
    static func serviceEnvironment(_ setup: Setup, _ store: PetStore, _ connection: Connection)
        -> PetService.Environment
    {
        let write = setup.write
        var serving = PetService.Environment(
            now: setup.now, localZone: setup.localZone,
            save: { world throws(StoreError) in
                try write(.save) { () throws(StoreError) in try store.save(world) }
            },
            closeDays: { closeouts, world throws(StoreError) in
                try write(.closeDays(records: closeouts.count(where: { $0.record != nil }))) { () throws(StoreError) in
                    try store.closeDays(closeouts, world: world)
                }
                if let failure = store.takeSnapshotFailure() { setup.log(failure) }
            },
            historyDay: { day throws(StoreError) in try store.history(day: day) },
            history: { range throws(StoreError) in try store.history(in: range) },
            hasHistory: { store.hasHistory },
            restore: { backup, now throws(StoreError) in try store.restore(backup, now: now) },
            acknowledgeRecovery: { () throws(StoreError) in try store.acknowledgeRecovery() },
            dataDirectory: store.directory, signals: signals(for: connection, log: setup.log),
            wake: setup.wake, log: setup.log,
            callsQueued: { [unowned connection] in connection.hasQueuedMessages })
        serving.timeScale = setup.timeScale
        serving.historyAfter = { after, limit throws(StoreError) in try store.history(after: after, limit: limit) }
        serving.keepBeforeCatchUp = { world throws(StoreError) in
            try write(.snapshotBeforeCatchUp) { () throws(StoreError) in try store.keepBeforeCatchUp(world) }
        }
        serving.beginImport = { () throws(StoreError) in try store.beginImport() }
        serving.commitImport = { stage, world, now throws(StoreError) in
            var restored: (kept: String, loaded: Loaded)?
            try write(.restore) { () throws(StoreError) in restored = try store.commitImport(stage, world: world, now: now) }
            guard let restored else { throw StoreError(.inconsistent, "The import did not run.") }
            return restored
        }
        serving.importCopier = { () throws(StoreError) in try store.importCopier() }
        serving.abandonImport = { store.abandonImport() }
        serving.generations = { () throws(StoreError) in try store.generationList() }
        serving.generation = { name throws(StoreError) in try store.generation(named: name) }
        serving.restoreGeneration = { generation, now, dryRun throws(StoreError) in
            var outcome: RestoreOutcome?
            try write(.restore) { () throws(StoreError) in
                outcome = try store.restore(generation, now: now, dryRun: dryRun)
            }
            guard let outcome else { throw StoreError(.inconsistent, "The restore did not run.") }
            return outcome
        }
        return serving
    }

    /// The service's signals, sent on `connection`. Once the bus is gone they are dropped without a
    /// word: requests already read still run (and are saved) before the loop sees the loss, and the
    /// loss gets its one line when the loop returns.
    static func signals(for connection: Connection, log: @escaping (String) -> Void) -> ServiceSignals {
        func send(_ signal: PetBus.Signal, _ arguments: [DBusValue]) {
            guard connection.isConnected else { return }
            do {
                try connection.emitSignal(
                    path: PetBus.path, interface: PetBus.interface, name: signal.rawValue, arguments: arguments)
            } catch {
                log("cannot emit \(signal.rawValue): \(error)")
            }
        }
        return ServiceSignals(
            entryChanged: { send(.entryChanged, [$0.dbus]) },
            tasksChanged: { send(.tasksChanged, []) },
            settingsChanged: { settings in
                guard connection.isConnected else { return }
                let properties: [PetBus.Property] = [.resetTime, .graceMinutes, .snoozeMinutes, .rollover]
                do {
                    try connection.emitPropertiesChanged(
                        path: PetBus.path, interface: PetBus.interface,
                        changed: properties.compactMap { p in settings.dbus(p).map { (p.rawValue, $0) } })
                } catch {
                    log("cannot emit PropertiesChanged: \(error)")
                }
            },
            widgetEntryChanged: { entry in
                guard connection.isConnected else { return }
                do {
                    try connection.emitPropertiesChanged(
                        path: PetBus.path, interface: PetBus.interface,
                        changed: [(PetBus.Property.widgetEntry.rawValue, entry.dbus)])
                } catch {
                    log("cannot emit PropertiesChanged: \(error)")
                }
            })
    }
}
