import PetCore
import Testing

/// petprogress(7) §3 "every zone": for each `Zone` line of the system tzdata's `tzdata.zi`, over all of
/// 2026 and all of 2100 (past Debian's tables, where each file's footer rule decides), every
/// offset change and every tick must match an oracle that reads the same tzdata — glibc's `zdump`,
/// run once for all zones — and days must hold up for both reset times. Zones run in parallel;
/// the counts are printed.
@Suite struct ZoneSweepTests {
    static let resetTimes = [WallTime.midnight, WallTime(hour: 4, minute: 30) ?? .midnight]
    static let years = [2026, 2100]

    /// What one zone's sweep of one year found.
    struct ZoneReport: Sendable {
        var zone: String
        var year: Int
        var loaded = true
        var changes = 0
        var ticks = 0
        var days = 0
        var failures: [String] = []

        mutating func fail(_ message: @autoclosure () -> String) {
            if failures.count < 5 { failures.append("\(zone) \(year): \(message())") }
        }
    }

    @Test func everyZoneAllOf2026And2100() async throws {
        let started = ContinuousClock.now
        let names = try SystemZones.names()
        #expect(!names.isEmpty)
        // A year either side, so the local year (up to 26 hours off UT) lies inside the dump.
        var oracles: [Int: [String: ZoneOracle.Timeline]] = [:]
        for year in Self.years { oracles[year] = try ZoneOracle.dump(names, fromYear: year - 1, toYear: year + 2) }
        let dumped = ContinuousClock.now - started
        let reports = await withTaskGroup(of: ZoneReport.self) { group in
            for name in names {
                for year in Self.years {
                    let oracle = oracles[year]?[name]
                    group.addTask { Self.sweep(name, year: year, oracle: oracle) }
                }
            }
            var all: [ZoneReport] = []
            for await r in group { all.append(r) }
            return all
        }
        for year in Self.years {
            let loaded = reports.filter { $0.year == year && $0.loaded }
            let total = { (f: (ZoneReport) -> Int) in loaded.reduce(0) { $0 + f($1) } }
            print(
                "zone sweep \(year): \(loaded.count) zones, \(total(\.changes)) offset changes and \(total(\.ticks)) ticks as zdump has them, \(total(\.days)) days (reset 00:00 and 04:30)"
            )
            // A zone whose offset changes for good during the year has more or fewer than 8760.
            for r in loaded where r.ticks != 8760 {
                print("zone sweep: \(r.zone) has \(r.ticks) local hours in \(year)")
            }
        }
        print("zone sweep: \(ContinuousClock.now - started) in all, of which zdump \(dumped)")
        let unloadable = Set(reports.filter { !$0.loaded }.map(\.zone)).sorted()
        #expect(unloadable.isEmpty, "zones the TZif reader cannot load: \(unloadable)")
        for failure in reports.flatMap(\.failures).sorted().prefix(40) { Issue.record("\(failure)") }
    }

    /// One zone, one year: offset changes and ticks against the oracle, then the days for each
    /// reset time as the daemon's `catchUp` walks the ticks.
    static func sweep(_ name: String, year: Int, oracle: ZoneOracle.Timeline?) -> ZoneReport {
        var report = ZoneReport(zone: name, year: year)
        guard let zone = SystemZones.zone(name) else {
            report.loaded = false
            return report
        }
        guard let oracle else {
            report.fail("zdump did not list the zone")
            return report
        }
        guard let jan1 = CivilDate(year: year, month: 1, day: 1),
            let next = CivilDate(year: year + 1, month: 1, day: 1),
            let start = zone.placements(on: jan1, at: 0).first, let end = zone.placements(on: next, at: 0).first
        else {
            report.fail("cannot place the year")
            return report
        }
        report.changes = checkChanges(zone, oracle, from: start, to: end, &report)
        let ticks = checkTicks(zone, oracle, from: start, to: end, &report)
        report.ticks = ticks.count
        for reset in resetTimes { report.days += checkDays(zone, reset: reset, ticks: ticks, &report) }
        return report
    }

    /// Every change the oracle lists: the offset on either side of it.
    static func checkChanges(
        _ zone: Zone, _ oracle: ZoneOracle.Timeline, from start: Instant, to end: Instant, _ report: inout ZoneReport
    ) -> Int {
        let changes = oracle.changes(from: start, to: end)
        for change in changes {
            let before = zone.offset(at: change.at - 1)
            let after = zone.offset(at: change.at)
            if before != oracle.offset(at: change.at - 1) || after != change.offset {
                report.fail(
                    "at \(change.at): \(before) → \(after), zdump \(oracle.offset(at: change.at - 1)) → \(change.offset)"
                )
            }
        }
        return changes.count
    }

    /// Every tick is at local minute 0 second 0, ticks strictly increase, `latest` agrees, the
    /// offset at each tick is the oracle's and stays so until the next unless the oracle has a
    /// change between, and the list equals the oracle's: within each stretch of constant offset
    /// `o` between the oracle's changes, the instants `t ≡ −o (mod 3600)`.
    static func checkTicks(
        _ zone: Zone, _ oracle: ZoneOracle.Timeline, from start: Instant, to end: Instant, _ report: inout ZoneReport
    ) -> [Instant] {
        var ticks: [Instant] = []
        ticks.reserveCapacity(8800)
        let changes = oracle.changes(from: start, to: end).map(\.at)
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
            let next = Ticks.next(after: t, zone: zone)
            if zone.offset(at: t) != oracle.offset(at: t) { report.fail("offset at tick \(t) is not zdump's") }
            if !changes.contains(where: { $0 > t && $0 < next }) && zone.offset(at: next - 1) != zone.offset(at: t) {
                report.fail("the offset changes between \(t) and \(next), where zdump has no change")
            }
            t = next
        }
        let expected = expectedTicks(oracle, from: start, to: end, changes: changes)
        if ticks != expected {
            let i =
                zip(ticks, expected).enumerated().first { $0.element.0 != $0.element.1 }?.offset
                ?? min(ticks.count, expected.count)
            report.fail("ticks differ from the oracle at #\(i) (\(ticks.count) vs \(expected.count))")
        }
        return ticks
    }

    /// Ticks computed from the oracle's offsets alone.
    static func expectedTicks(_ oracle: ZoneOracle.Timeline, from start: Instant, to end: Instant, changes: [Instant])
        -> [Instant]
    {
        let bounds = [start] + changes.filter { $0 > start } + [end]
        var ticks: [Instant] = []
        for (a, b) in zip(bounds, bounds.dropFirst()) {
            let o = Instant(oracle.offset(at: a))
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
        if closed < 364 || closed > 366 { report.fail("\(closed) days closed with reset \(reset)") }
        return closed
    }
}
