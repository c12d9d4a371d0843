import DBusKit
import Glibc
import LinuxKit
import PetBus
import PetCore
import PetStore

/// Composes and runs the daemon: bus connection, store, service, exported object, and one event
/// loop over the bus, the wake-up timer, SIGTERM/SIGINT and the time-zone watch (DESIGN.md §4).
/// Process-wide effects (signal dispositions and mask, fds 0–2) are `main`'s.
public enum Daemon {
    /// Runs until `stopSignals` reports SIGTERM/SIGINT (returns 0) or the bus goes away (returns 1).
    /// Returns 1 with one clear line when another instance holds the data directory or the bus name,
    /// and 78 (`EX_CONFIG`) when the data directory is not the one `--expect-data-dir` names.
    public static func run(
        _ options: DaemonOptions, environment: [String: String], executable: String, stopSignals: SignalFD
    ) -> Int32 {
        let log = ServiceLog()
        let clock =
            options.simulated ? ServiceClock.simulated(start: options.now, scale: options.timeScale ?? 1) : .real
        do {
            guard let directory = options.dataDirectory ?? defaultDataDirectory(environment: environment) else {
                log("no data directory: set HOME or XDG_DATA_HOME, or pass --data-dir")
                return 1
            }
            if let expected = options.expectedDataDirectory,
                let problem = ExpectedDataDirectory.mismatch(
                    directory, expected: expected, options: options, environment: environment)
            {
                log(problem)
                return ExpectedDataDirectory.exitStatus
            }
            let store: PetStore
            let loaded: Loaded
            switch openStore(directory: directory, clock: clock) {
            case .success(let opened): (store, loaded) = opened
            case .failure(let failure):
                log(failure.message)
                return 1
            }
            let connection = try Connection.session()
            connection.onFailure { log("D-Bus: \($0.message)") }
            let timer = try WakeTimer(clock: clock, log: log)
            let service = makeService(
                loaded: loaded, environment: environment, executable: executable, log: log,
                live: .live(
                    store: store, now: clock.now, environment: environment,
                    signals: signals(for: connection, log: log), wake: timer.arm, log: log,
                    callsQueued: { [unowned connection] in connection.hasQueuedMessages }))
            guard try publish(service, on: connection, log: log) else { return 1 }
            // Only once the name is ours: a second daemon on this bus must not touch its data.
            service.refresh(startingUp: true)
            let loop = try eventLoop(connection, service, timer, stopSignals, log)
            log(
                "started: data \(directory), open day \(service.world.openDay.key), zone \(service.zone.identifier)\(clock.isSimulated ? ", simulated clock" : "")"
            )
            let exit = loop.run()
            connection.flush()
            guard exit == .stopped else {
                log("lost the bus (\(exit)); exiting so that systemd can restart the daemon")
                return 1
            }
            return 0
        } catch {
            log("cannot start: \(error)")
            return 1
        }
    }

    /// Exports the object and hooks the service's transaction to the connection, then takes the bus
    /// name (DESIGN.md §2: objects before the name); false,
    /// after one log line, when another daemon owns it.
    static func publish(_ service: PetService, on connection: Connection, log: ServiceLog) throws -> Bool {
        let object = try service.exportedObject()
        try connection.export(object)
        // The transaction of queued calls ends before any message it cannot hold, and when the
        // incoming queue is drained.
        connection.onIncoming { [unowned service] in service.receive($0, reaches: object) }
        connection.onDrained { [unowned service] in service.commit() }
        if let problem = requestName(on: connection) {
            log(problem)
            return false
        }
        return true
    }

    /// One loop over the bus, the wake-up timer, SIGTERM/SIGINT and the time-zone watch.
    static func eventLoop(
        _ connection: Connection, _ service: PetService, _ timer: WakeTimer,
        _ stopSignals: SignalFD, _ log: ServiceLog
    ) throws -> EventLoop {
        let loop = EventLoop()
        try loop.add(connection)
        _ = loop.addFD(timer.timer.fd) { _ in
            if timer.fired() { service.refresh() }
        }
        _ = loop.addFD(stopSignals.fd) { _ in
            let got = stopSignals.read()
            log("stopping on signal \(got.map(String.init).joined(separator: ","))")
            loop.stop()
        }
        // The loop's handlers keep the tracking alive as long as the loop runs.
        try ZoneTracking(loop: loop, service: service, log: log).start()
        return loop
    }

    /// Takes the well-known name (DO_NOT_QUEUE); the sentence to log when that fails.
    static func requestName(on connection: Connection) -> String? {
        do {
            try connection.requestName(PetBus.name)
            return nil
        } catch {
            if case .taken = error {
                return "\(PetBus.name) is already owned on this bus: another petprogressd is running; exiting"
            }
            return "cannot own \(PetBus.name): \(error)"
        }
    }

    /// Why the data directory could not be used: one sentence.
    struct OpenFailure: Error {
        let message: String
    }

    /// Opens and locks the data directory and loads it.
    static func openStore(directory: String, clock: ServiceClock) -> Result<(PetStore, Loaded), OpenFailure> {
        do {
            let store = try PetStore.open(directory: directory)
            return .success((store, try store.load(now: clock.now())))
        } catch {
            if error.kind == .locked {
                return .failure(
                    OpenFailure(message: "the data directory \(directory) is in use by another petprogressd; exiting"))
            }
            return .failure(OpenFailure(message: "cannot open the data directory \(directory): \(error.message)"))
        }
    }

    /// The service over the loaded store: the local zone, the stage table in force, the icons.
    static func makeService(
        loaded: Loaded, environment: [String: String], executable: String, log: ServiceLog,
        live: PetService.Environment
    ) -> PetService {
        let local = live.localZone()
        let (stages, stageProblem) = StageFile.load(path: StageFile.path(environment: environment))
        let problems = loaded.problems + [stageProblem].compactMap { $0 }
        for problem in problems + [local.problem].compactMap({ $0 }) { log(problem) }
        let world: PetWorld
        switch loaded.start {
        case .state(let saved): world = saved
        case .empty(let lastClosedDay):
            world = PetWorld(now: live.now(), zone: local.zone, lastClosedDay: lastClosedDay)
        }
        return PetService(
            world: world, zone: local, stages: stages,
            icons: IconLocator(stages: stages, environment: environment, executable: executable),
            problems: problems, environment: live)
    }

    /// The service's signals, sent on `connection`. Once the bus is gone they are dropped without a
    /// word: requests already read still run (and are saved) before the loop sees the loss, and the
    /// loss gets its one line when the loop returns.
    static func signals(for connection: Connection, log: ServiceLog) -> ServiceSignals {
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
