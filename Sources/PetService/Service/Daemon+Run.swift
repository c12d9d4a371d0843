import DBusKit
import LinuxKit
import PetCore

/// Runs the process's daemon: composed from the live environment, then one event loop over the bus,
/// the wake-up timer, SIGTERM/SIGINT and the time-zone watch (libdbus cannot be woken from another
/// thread, so one poll loop serves them all). Process-wide effects (signal dispositions and mask,
/// fds 0–2) are `main`'s.
extension Daemon {
    /// Runs until `stopSignals` reports SIGTERM/SIGINT (returns 0) or the bus goes away (returns 1).
    /// Returns 1 with one clear line when another instance holds the data directory or the bus name,
    /// and 78 (`EX_CONFIG`) when the data directory is not the one `--expect-data-dir` names, is not
    /// the user's, or holds something other than a regular file of the user's where a data file goes.
    public static func run(
        _ options: DaemonOptions, environment: [String: String], executable: String, stopSignals: SignalFD
    ) -> Int32 {
        let log = ServiceLog()
        let clock =
            options.simulated ? ServiceClock.simulated(start: options.now, scale: options.timeScale ?? 1) : .real
        do {
            let timer = try WakeTimer(clock: clock, log: log)
            // Armed before the zone is first read, so that a change from here on is an event on
            // the watch and the start-up reads the zone once (ZoneTracking.start).
            let zoneWatch = try? ZoneWatch()
            let daemon = try compose(
                .live(
                    options, variables: environment, executable: executable, clock: clock, wake: timer.arm, log: log))
            let service = daemon.service
            let loop = try eventLoop(daemon.connection, service, timer, stopSignals, zoneWatch, log)
            log(
                "started: data \(daemon.store.directory), open day \(service.world.openDay.key), zone \(service.zone.identifier)\(clock.isSimulated ? ", simulated clock" : "")"
            )
            let exit = loop.run()
            daemon.connection.flush()
            guard exit == .stopped else {
                log("lost the bus (\(exit)); exiting so that systemd can restart the daemon")
                return 1
            }
            return 0
        } catch let failure as StartFailure {
            log(failure.message)
            return failure.status
        } catch {
            log("cannot start: \(error)")
            return 1
        }
    }

    /// One loop over the bus, the wake-up timer, SIGTERM/SIGINT and the time-zone watch.
    static func eventLoop(
        _ connection: Connection, _ service: PetService, _ timer: WakeTimer,
        _ stopSignals: SignalFD, _ zoneWatch: ZoneWatch?, _ log: ServiceLog
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
        // An import's parse runs beside the loop, which goes on answering (petprogress(7) §5).
        service.offLoop = { [unowned loop] work, done in
            (try? OffLoopWork.start(on: loop, work, done: { _ in done() })) != nil
        }
        // The loop's handlers keep the tracking alive as long as the loop runs.
        try ZoneTracking(loop: loop, service: service, log: log).start(armed: zoneWatch)
        return loop
    }
}
