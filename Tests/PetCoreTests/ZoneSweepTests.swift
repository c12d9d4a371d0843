import Foundation
import PetCore
import Testing

/// SPEC §3 "every zone": for each `Zone` line of the system tzdata's `tzdata.zi`, over all of
/// 2026, ticks and days must hold up. Zones run in parallel; the counts are printed.
@Suite struct ZoneSweepTests {
    static let tzdataPath = "/usr/share/zoneinfo/tzdata.zi"
    static let resetTimes = [WallTime.midnight, WallTime(hour: 4, minute: 30) ?? .midnight]

    /// What one zone's sweep found.
    struct ZoneReport: Sendable {
        var zone: String
        var loaded = true
        var ticks = 0
        var days = 0
        var failures: [String] = []

        mutating func fail(_ message: @autoclosure () -> String) {
            if failures.count < 5 { failures.append("\(zone): \(message())") }
        }
    }

    /// The `Zone` entries (`Z name …` lines) of tzdata.zi; not links, not posix/ or right/.
    static func zoneNames() throws -> [String] {
        guard let text = try? String(contentsOfFile: tzdataPath, encoding: .utf8) else {
            throw SweepError("\(tzdataPath) is missing; install tzdata (make deps runs scripts/deps.sh)")
        }
        return text.split(separator: "\n").filter { $0.hasPrefix("Z ") }.compactMap {
            $0.split(separator: " ").dropFirst().first.map(String.init)
        }
    }

    struct SweepError: Error, CustomStringConvertible {
        let description: String
        init(_ d: String) { description = d }
    }

    @Test func everyZoneAllOf2026() async throws {
        let names = try Self.zoneNames()
        #expect(!names.isEmpty)
        let reports = await withTaskGroup(of: ZoneReport.self) { group in
            for name in names { group.addTask { Self.sweep(name) } }
            var all: [ZoneReport] = []
            for await r in group { all.append(r) }
            return all
        }
        let unloadable = reports.filter { !$0.loaded }.map(\.zone).sorted()
        let loaded = reports.filter(\.loaded)
        let ticks = loaded.reduce(0) { $0 + $1.ticks }
        let days = loaded.reduce(0) { $0 + $1.days }
        print("zone sweep: \(loaded.count) zones, \(ticks) ticks, \(days) days (reset 00:00 and 04:30)")
        // A zone whose offset changes for good during the year has more or fewer than 8760.
        for r in loaded where r.ticks != 8760 { print("zone sweep: \(r.zone) has \(r.ticks) local hours in 2026") }
        if !unloadable.isEmpty {
            print("zone sweep: the toolchain cannot load \(unloadable.count): \(unloadable.joined(separator: ", "))")
        }
        // A zone newer than the toolchain's ICU data is named, not failed; a build without the zone
        // database (FoundationEssentials only, DESIGN.md §4) loads almost none and fails here.
        #expect(unloadable.count * 100 <= names.count, "zones the toolchain cannot load: \(unloadable)")
        for failure in loaded.flatMap(\.failures).sorted().prefix(40) { Issue.record("\(failure)") }
    }

    /// One zone: ticks against an oracle built from the zone's transitions, then the days for
    /// each reset time as the daemon's `catchUp` walks the ticks.
    static func sweep(_ name: String) -> ZoneReport {
        var report = ZoneReport(zone: name)
        guard let zone = Zone(identifier: name), zone.identifier == name else {
            report.loaded = false
            return report
        }
        guard let jan1 = CivilDate(year: 2026, month: 1, day: 1), let next = CivilDate(year: 2027, month: 1, day: 1),
            let start = zone.placements(on: jan1, at: 0).first, let end = zone.placements(on: next, at: 0).first
        else {
            report.fail("cannot place the year")
            return report
        }
        let ticks = checkTicks(zone, from: start, to: end, &report)
        report.ticks = ticks.count
        for reset in resetTimes { report.days += checkDays(zone, reset: reset, ticks: ticks, &report) }
        return report
    }

    /// Every tick is at local minute 0 second 0, ticks strictly increase, `latest` agrees, and the
    /// list equals the oracle: within each stretch of constant offset `o` between the zone's
    /// transitions, the instants `t ≡ −o (mod 3600)` — so no local top of hour is skipped.
    static func checkTicks(_ zone: Zone, from start: Instant, to end: Instant, _ report: inout ZoneReport) -> [Instant]
    {
        var ticks: [Instant] = []
        ticks.reserveCapacity(8800)
        var t = Ticks.first(atOrAfter: start, zone: zone)
        var previous = start - 1
        while t < end {
            let local = zone.localTime(at: t)
            if local.minute != 0 || local.second != 0 {
                report.fail("tick \(t) is at \(local.hour):\(local.minute):\(local.second)")
            }
            if t <= previous { report.fail("tick \(t) does not follow \(previous)") }
            if Ticks.latest(atOrBefore: t + 59, zone: zone) != t { report.fail("latest(\(t + 59)) is not \(t)") }
            ticks.append(t)
            previous = t
            t = Ticks.next(after: t, zone: zone)
        }
        let expected = oracle(zone, from: start, to: end)
        if ticks != expected {
            let i =
                zip(ticks, expected).enumerated().first { $0.element.0 != $0.element.1 }?.offset
                ?? min(ticks.count, expected.count)
            report.fail("ticks differ from the oracle at #\(i) (\(ticks.count) vs \(expected.count))")
        }
        return ticks
    }

    /// Ticks computed independently from Foundation's transition list.
    static func oracle(_ zone: Zone, from start: Instant, to end: Instant) -> [Instant] {
        var bounds: [Instant] = [start]
        var cursor = Date(timeIntervalSince1970: TimeInterval(start))
        while let next = zone.timeZone.nextDaylightSavingTimeTransition(after: cursor),
            next.timeIntervalSince1970 < TimeInterval(end)
        {
            bounds.append(Instant(next.timeIntervalSince1970))
            cursor = next
        }
        bounds.append(end)
        var ticks: [Instant] = []
        for (a, b) in zip(bounds, bounds.dropFirst()) {
            let o = Instant(zone.offset(at: a))
            var t = a + ((-(a + o)) % 3600 + 3600) % 3600
            while t < b {
                ticks.append(t)
                t += 3600
            }
        }
        return ticks
    }

    /// Walks `catchUp` (due closeouts, then the snapshot rule) along the ticks, as the daemon's
    /// hourly timer does: each tick takes the snapshot and emits once; every day opens where the
    /// last one closed, closes
    /// exactly once at the first tick at or after its end, ends at the reset time (or just after
    /// a gap), lasts 12–36 hours, and has a key later than every key before it.
    static func checkDays(_ zone: Zone, reset: WallTime, ticks: [Instant], _ report: inout ZoneReport) -> Int {
        guard let first = ticks.first else { return 0 }
        var settings = Settings()
        settings.resetTime = reset
        var world = PetWorld(now: first, zone: zone, settings: settings)
        _ = world.catchUp(Context(now: first, zone: zone), startingUp: true)
        var previous = world.openDay
        var keys: Set<DayKey> = [previous.key]
        var previousTick = first
        var closed = 0
        for tick in ticks.dropFirst() {
            let step = world.catchUp(Context(now: tick, zone: zone))
            let closeouts = step.closeouts
            if world.snapshot?.tick != tick || !step.emitEntryChanged {
                report.fail("no snapshot taken at tick \(tick)")
            }
            for c in closeouts {
                closed += 1
                if c.day != previous { report.fail("closed \(c.day) but \(previous) was open") }
                if !(previousTick < c.date && c.date <= tick) {
                    report.fail("day \(c.day.key) closed at \(tick), late")
                }
                let length = c.day.end - c.day.start
                if length < 12 * 3600 || length > 36 * 3600 { report.fail("day \(c.day.key) lasts \(length) s") }
                let atReset = zone.wallTime(at: c.day.end) == reset && zone.localTime(at: c.day.end).second == 0
                let afterGap = zone.offset(at: c.day.end - 1) != zone.offset(at: c.day.end)
                if !atReset && !afterGap {
                    report.fail("day \(c.day.key) ends at \(zone.wallTime(at: c.day.end)), not \(reset)")
                }
                previous = world.openDay
                if world.openDay.start != c.day.end {
                    report.fail("day \(world.openDay.key) does not start where \(c.day.key) ended")
                }
                if world.openDay.key <= c.day.key || !keys.insert(world.openDay.key).inserted {
                    report.fail("day key \(world.openDay.key) repeats or goes back after \(c.day.key)")
                }
            }
            if closeouts.count > 1 { report.fail("\(closeouts.count) closeouts at one tick \(tick)") }
            previousTick = tick
        }
        if closed < 364 || closed > 366 { report.fail("\(closed) days closed in 2026 with reset \(reset)") }
        return closed
    }
}
