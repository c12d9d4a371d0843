import DBusKit
import Glibc
import PetCore
import PetStore

/// Composes and runs the daemon: store, service, bus object, and one event loop over the bus,
/// the wake-up timer, SIGTERM/SIGINT and the time-zone watch (DESIGN.md §4).
public enum Daemon {
    /// Runs until SIGTERM/SIGINT (returns 0) or the bus goes away (returns 1). Returns 1 with one
    /// clear line when another instance holds the data directory or the bus name.
    public static func run(_ options: DaemonOptions, environment: [String: String], executable: String) -> Int32 {
        // A log line to a stderr nobody reads (a closed terminal, a dead pipe reader) must not kill
        // the daemon: the default SIGPIPE action would, and libdbus only ignores it once connected.
        signal(SIGPIPE, SIG_IGN)
        openMissingStandardDescriptors()
        let log = ServiceLog()
        let clock =
            options.simulated ? ServiceClock.simulated(start: options.now, scale: options.timeScale ?? 1) : .real
        do {
            // Blocked before anything else, so the signals reach only the signalfd.
            let stopSignals = try SignalFD(signals: [SIGTERM, SIGINT])
            guard let directory = options.dataDirectory ?? defaultDataDirectory(environment: environment) else {
                log("no data directory: set HOME or XDG_DATA_HOME, or pass --data-dir")
                return 1
            }
            let service: PetService
            switch openService(
                directory: directory, clock: clock, environment: environment, executable: executable, log: log)
            {
            case .success(let s): service = s
            case .failure(let message):
                log(message)
                return 1
            }
            guard let connection = try publish(service, log: log) else { return 1 }
            // Only once the name is ours: a second daemon on this bus must not touch its data.
            service.refresh(startingUp: true)
            let loop = try eventLoop(connection, service, clock, stopSignals, environment, log)
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

    /// Exports the object, then takes the bus name (DESIGN.md §2: objects before the name); nil,
    /// after one log line, when another daemon owns it.
    static func publish(_ service: PetService, log: ServiceLog) throws -> Connection? {
        let connection = try Connection.session()
        let object = try service.exportedObject()
        try connection.export(object)
        service.signals = signals(for: connection, object: object, log: log)
        if let problem = requestName(on: connection) {
            log(problem)
            return nil
        }
        return connection
    }

    /// One loop over the bus, the wake-up timer, SIGTERM/SIGINT and the time-zone watch.
    static func eventLoop(
        _ connection: Connection, _ service: PetService, _ clock: ServiceClock,
        _ stopSignals: SignalFD, _ environment: [String: String], _ log: ServiceLog
    ) throws -> EventLoop {
        let loop = EventLoop()
        try loop.add(connection)
        try watchTimer(loop: loop, service: service, clock: clock, log: log)
        _ = loop.addFD(stopSignals.fd) { _ in
            let got = stopSignals.read()
            log("stopping on signal \(got.map(String.init).joined(separator: ","))")
            loop.stop()
        }
        // The loop's handlers keep the tracking alive as long as the loop runs.
        try ZoneTracking(loop: loop, service: service, environment: environment, log: log).start()
        return loop
    }

    /// Opens /dev/null on each of fds 0–2 that is closed. Started with them closed, the lock, the
    /// state file or the bus socket would take those numbers and a log line (written to fd 2) would
    /// land in it: in the socket it corrupts the stream and the bus drops the daemon.
    static func openMissingStandardDescriptors() {
        for fd: Int32 in 0...2 where fcntl(fd, F_GETFD) == -1 && errno == EBADF {
            // open(2) returns the lowest free number: this one, as the lower ones are open by now.
            let opened = open("/dev/null", O_RDWR)
            if opened > 2 { close(opened) }
        }
    }

    /// Takes the well-known name (DO_NOT_QUEUE); the sentence to log when that fails.
    static func requestName(on connection: Connection) -> String? {
        do {
            try connection.requestName(BusContract.name)
            return nil
        } catch {
            if case .taken = error {
                return "\(BusContract.name) is already owned on this bus: another petprogressd is running; exiting"
            }
            return "cannot own \(BusContract.name): \(error)"
        }
    }

    enum Opened {
        case success(PetService)
        case failure(String)
    }

    static func openService(
        directory: String, clock: ServiceClock, environment: [String: String],
        executable: String, log: ServiceLog
    ) -> Opened {
        let store: PetStore
        let loaded: Loaded
        do {
            store = try PetStore.open(directory: directory)
            loaded = try store.load(now: clock.now())
        } catch {
            if error.kind == .locked {
                return .failure("the data directory \(directory) is in use by another petprogressd; exiting")
            }
            return .failure("cannot open the data directory \(directory): \(error.message)")
        }
        let local = LocalZone.resolve(environment: environment)
        let zone = local.zone
        let (stages, stageProblem) = StageFile.load(path: StageFile.path(environment: environment))
        let problems = loaded.problems + [stageProblem].compactMap { $0 }
        for problem in problems + [local.problem].compactMap({ $0 }) { log(problem) }
        let world: PetWorld
        switch loaded.start {
        case .state(let saved): world = saved
        case .empty(let lastClosedDay): world = PetWorld(now: clock.now(), zone: zone, lastClosedDay: lastClosedDay)
        }
        let service = PetService(
            store: store, world: world, clock: clock, zone: zone, stages: stages,
            icons: IconLocator(stages: stages, environment: environment, executable: executable),
            problems: problems, log: log)
        service.zoneProblem = local.problem
        return .success(service)
    }

    /// The one timer: armed at the next tick or day end; a realtime clock jump cancels it.
    static func watchTimer(loop: EventLoop, service: PetService, clock: ServiceClock, log: ServiceLog) throws {
        let timer = try TimerFD(clock: clock.timerClock)
        var armed: Instant?
        service.onNextWake = { next in
            guard next != armed else { return }
            do {
                try clock.arm(timer, at: next)
                armed = next
            } catch {
                log("cannot arm the timer: \(error)")
            }
        }
        _ = loop.addFD(timer.fd) { _ in
            switch timer.read() {
            case .clockChanged:
                log("the clock was set; catching up")
                armed = nil
            case .expired: armed = nil
            case .notYet: return
            }
            service.refresh()
        }
        service.refresh()
    }

    static func signals(for connection: Connection, object: ExportedObject, log: ServiceLog) -> ServiceSignals {
        func send(_ name: String, _ arguments: [DBusValue]) {
            do {
                try connection.emitSignal(
                    path: BusContract.path, interface: BusContract.interface, name: name, arguments: arguments)
            } catch {
                log("cannot emit \(name): \(error)")
            }
        }
        return ServiceSignals(
            entryChanged: { send("EntryChanged", [$0.dbus]) },
            tasksChanged: { send("TasksChanged", []) },
            widgetEntryChanged: { entry in
                do {
                    try connection.emitPropertiesChanged(
                        path: BusContract.path, interface: BusContract.interface, changed: [("WidgetEntry", entry.dbus)]
                    )
                } catch {
                    log("cannot emit PropertiesChanged: \(error)")
                }
            })
    }
}
