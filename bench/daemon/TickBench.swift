import DBusKit
import Foundation
import Glibc
import LinuxKit
import PetBus

/// `EntryChanged` after the tick, on the real clock: each sample starts the daemon in a zone whose
/// UTC offset (a POSIX TZ rule with seconds) puts a local top of the hour 2 s ahead, so the tick's
/// due instant is an exact Unix second, and times the signal's arrival on `CLOCK_REALTIME`.
extension DaemonBench {
    var tickSamples: Int { quick ? 3 : 30 }

    func entryChangedDelays(_ bus: Connection) throws {
        let delays = try (0..<tickSamples).map { _ in try entryChangedDelay(bus) }
        say(
            spread("EntryChanged after the tick (\(tickSamples) ticks, real clock)", delays, unit: " ms", scale: 1e3)
                + " (target <= 10 ms)\n")
    }

    func entryChangedDelay(_ bus: Connection) throws -> Double {
        let loop = EventLoop()
        try loop.add(bus)
        defer { loop.remove(bus) }
        var arrived: Double?
        let sub = try bus.subscribe(MatchRule(interface: name, member: "EntryChanged")) { _ in arrived = realtime() }
        defer { try? bus.unsubscribe(sub) }
        let due = Int(realtime().rounded(.down)) + 2
        // Seconds east of UTC that make `due` a local top of the hour; POSIX counts west.
        let east = (3600 - due % 3600) % 3600
        let rule = String(format: "<BNCH>-%d:%02d:%02d", east / 3600, east / 60 % 60, east % 60)
        let dir = root + "/tick-\(UUID().uuidString)"
        let pid = try spawn([daemon, "--data-dir", dir], environment: ["TZ=" + rule])
        defer { stop(pid) }
        guard loop.run(until: { arrived != nil }, timeout: .seconds(10)), let arrived else {
            throw DBusError.failed("no EntryChanged within 10 s (TZ=\(rule))")
        }
        return arrived - Double(due)
    }

    func realtime() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_REALTIME, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
    }
}
