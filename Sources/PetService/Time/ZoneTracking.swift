import Glibc
import LinuxKit

/// Keeps the service's zone current: watches `/etc` and the zone files in use (`ZoneWatch`), and
/// has the service re-read the local zone on every change that concerns them.
///
/// An inotify instance can be refused (the kernel allows 128 per user, and a desktop session's
/// file managers and indexers use many): the daemon then says so once and tries again every few
/// seconds, reading the zone afresh when it succeeds, so a change made meanwhile is not lost.
final class ZoneTracking {
    static let retryInterval: Duration = .seconds(2)

    let loop: EventLoop
    let service: PetService
    let log: ServiceLog
    private var watch: ZoneWatch?
    private var retry: (timer: TimerFD, token: EventLoop.FDToken)?

    init(loop: EventLoop, service: PetService, log: ServiceLog) {
        self.loop = loop
        self.service = service
        self.log = log
    }

    /// Watches from now on; without inotify, retries on a timer until it can. `armed`: a watch
    /// made before the service first read the zone, whose events since are still queued on it:
    /// the zone is not read again now (at start-up, one read of the zone instead of two). As
    /// before, a zone file replaced between that read and the watch on its directory (here, the
    /// store's loading; before, microseconds) is seen at the next change of the zone.
    func start(armed: ZoneWatch? = nil) throws {
        if let armed { return attach(armed, files: service.zoneFiles) }
        do {
            return try connect()
        } catch {
            let reason = String(cString: strerror(error.errno))
            log("cannot watch for time-zone changes yet (inotify: \(reason)); trying again")
        }
        let timer = try TimerFD(clock: .monotonic)
        try timer.arm(after: Self.retryInterval, interval: Self.retryInterval)
        let token = loop.addFD(timer.fd) { [self] _ in
            guard timer.read() != .notYet, (try? connect()) != nil, let retry else { return }
            loop.removeFD(retry.token)
            self.retry = nil
            log("watching for time-zone changes")
        }
        retry = (timer, token)
    }

    /// Makes the inotify watch and reads the zone; fails when no instance or watch is to be had.
    private func connect() throws(SystemCallError) {
        let watch = try ZoneWatch()
        attach(watch, files: nil)
        reread()
    }

    /// Serves `watch` from the loop; with `files`, watches them (the zone was read after `watch`
    /// was made, from those files).
    private func attach(_ watch: ZoneWatch, files: [String]?) {
        self.watch = watch
        if let files { watch.watch(files: files) }
        _ = loop.addFD(watch.fd) { [self] _ in
            if watch.drain() { reread() }
        }
    }

    private func reread() {
        watch?.watch(files: service.rereadZone().files)
    }
}
