import Foundation
import PetCore
import Testing

@testable import PetService

/// Clock and zone trouble with the injected clock and zone (petprogress(7) §3.2; never the host's
/// clock, which is shared and which no test may move). A clock jump or resume wakes the timer
/// (cancel-on-set) and the service refreshes, as `f.service.refresh()` does here; a zone change
/// makes it re-read the zone.
@Suite("Clock and zone trouble")
struct ClockTroubleTests {
    @Test("a jump forward of hours: one EntryChanged, for the latest tick, and ticks go on from there")
    func forwardHours() throws {
        let berlin = try LocalZone.named("Europe/Berlin")
        let f = try ServiceFixture(now: try berlin.at("2026-03-02", "08:10"), zone: berlin)
        defer { f.close() }
        f.now = try berlin.at("2026-03-02", "13:20")
        f.service.refresh()
        #expect(f.signals == ["PropertiesChanged(WidgetEntry)", "EntryChanged"])
        #expect(try f.entriesSignalled.map(\.date) == [berlin.at("2026-03-02", "13:00")])
        #expect(f.writes == ["save"])
        #expect(try f.wakes == [berlin.at("2026-03-02", "14:00")])
        #expect(f.service.world.lastClosedDay == nil)
    }

    @Test("a jump forward of days: each day closed once, in one write, and one EntryChanged")
    func forwardDays() throws {
        let berlin = try LocalZone.named("Europe/Berlin")
        let f = try ServiceFixture(now: try berlin.at("2026-03-02", "08:10"), zone: berlin)
        defer { f.close() }
        let water = try f.addTask("Water", "09:00")
        _ = try f.addTask("Walk", "10:00")
        _ = try f.succeed("MarkDone", [.string(water)])
        f.forget()

        f.now = try berlin.at("2026-03-05", "10:20")  // Monday 08:10 → Thursday 10:20
        f.service.refresh()
        // Monday is recorded; Tuesday and Wednesday, never lived and without tasks, close neutral.
        // The state before them is kept first (petprogress(7) §3.1: a catch-up over several days).
        #expect(f.writes == ["before catch-up", "closeDays(1 records)"])
        #expect(f.signals.filter { $0 == "EntryChanged" }.count == 1)
        #expect(
            f.signals == Array(repeating: ["TasksChanged", "PropertiesChanged(WidgetEntry)"], count: 3).flatMap { $0 }
                + ["EntryChanged"])
        #expect(try f.entriesSignalled.map(\.date) == [berlin.at("2026-03-05", "10:00")])
        #expect(f.service.world.lastClosedDay?.description == "2026-03-04")
        #expect(f.service.world.openDay.key.description == "2026-03-05")
        #expect(try f.wakes == [berlin.at("2026-03-05", "11:00")])
        let history = try #require(try f.succeed("GetHistory", [.string(""), .string("")]).first?.arrayValues)
        #expect(history.compactMap { $0.vardictValue?["day_key"]?.stringValue } == ["2026-03-02"])
        #expect(history.first?.vardictValue?["tasks_done"] == .int32(1))
    }

    @Test("days off: each day closed once, in order, also after a jump back and a restart")
    func forwardDaysRecorded() throws {
        let berlin = try LocalZone.named("Europe/Berlin")
        let f = try ServiceFixture(now: try berlin.at("2026-03-02", "08:10"), zone: berlin)
        defer { f.close() }
        _ = try f.succeed("AddTaskFor", [.string("Stretch"), .string("09:00"), .string(""), .string("daily")])
        _ = try f.succeed("AddTaskFor", [.string("Pack"), .string("08:00"), .string("tomorrow"), .string("")])
        f.forget()

        // Monday (Stretch), Tuesday (Pack, added in advance, and its Stretch) and Wednesday (its
        // Stretch, as the day would have had it: petprogress(7) §3.1, "Catch-up") are recorded;
        // Thursday opens with its instance.
        f.now = try berlin.at("2026-03-05", "10:20")
        f.service.refresh()
        #expect(f.writes == ["before catch-up", "closeDays(3 records)"])
        #expect(f.signals.filter { $0 == "TasksChanged" }.count == 3)
        #expect(f.signals.filter { $0 == "EntryChanged" }.count == 1)
        #expect(f.service.world.tasks.map(\.title) == ["Stretch"], "Thursday's instance")

        f.now = try berlin.at("2026-03-03", "12:00")
        try f.restart()
        f.now = try berlin.at("2026-03-05", "12:00")
        f.service.refresh()
        #expect(f.writes == ["save"], "the 12:00 snapshot, and no closeout again")
        let history = try #require(try f.succeed("GetHistory", [.string(""), .string("")]).first?.arrayValues)
        #expect(
            history.compactMap { $0.vardictValue?["day_key"]?.stringValue } == [
                "2026-03-02", "2026-03-03", "2026-03-04",
            ])
    }

    @Test("a jump backward: no second closeout, the snapshot stays, EntryChanged at the next tick after it")
    func backward() throws {
        let berlin = try LocalZone.named("Europe/Berlin")
        let f = try ServiceFixture(now: try berlin.at("2026-03-02", "08:10"), zone: berlin)
        defer { f.close() }
        _ = try f.addTask("Water", "09:00")
        f.now = try berlin.at("2026-03-05", "10:20")
        f.service.refresh()
        let after = f.service.world
        f.forget()

        // Back to Tuesday 09:30: days closed stay closed, the open day stays open, and the
        // widget keeps Thursday 10:00 (docs/DECISIONS.md, "A backward clock leaves the snapshot").
        f.now = try berlin.at("2026-03-03", "09:30")
        f.service.refresh()
        let entry = try f.entry()
        #expect(f.signals == [] && f.writes == [])
        #expect(f.service.world == after)
        #expect(try entry.date == berlin.at("2026-03-05", "10:00"))
        #expect(try entry.nextDate == berlin.at("2026-03-05", "11:00"))
        #expect(entry.dayKey == "2026-03-05")
        let eleven = try berlin.at("2026-03-05", "11:00")
        #expect(!f.wakes.isEmpty && f.wakes.allSatisfy { $0 == eleven }, "\(f.wakes)")

        // Forward again: ticks up to the stored one are no crossings; the next one is.
        f.now = try berlin.at("2026-03-05", "10:40")
        f.service.refresh()
        #expect(f.signals == [] && f.writes == [])
        f.now = try berlin.at("2026-03-05", "11:00")
        f.service.refresh()
        #expect(f.signals == ["PropertiesChanged(WidgetEntry)", "EntryChanged"])
        #expect(f.writes == ["save"])
        let history = try #require(try f.succeed("GetHistory", [.string(""), .string("")]).first?.arrayValues)
        #expect(history.count == 1, "Monday recorded once")
    }

    @Test("a jump backward within the day does not take an earlier tick again")
    func backwardWithinDay() throws {
        let berlin = try LocalZone.named("Europe/Berlin")
        let f = try ServiceFixture(now: try berlin.at("2026-03-02", "13:20"), zone: berlin)
        defer { f.close() }
        f.now = try berlin.at("2026-03-02", "11:30")
        f.service.refresh()
        f.now = try berlin.at("2026-03-02", "12:00")
        f.service.refresh()
        #expect(f.signals == [] && f.writes == [])
        #expect(try f.entry().date == berlin.at("2026-03-02", "13:00"))
    }

    @Test("a zone change while running (Berlin → Kathmandu): ticks re-align to the new local hour, days too")
    func zoneChange() throws {
        let berlin = try LocalZone.named("Europe/Berlin")
        let kathmandu = try LocalZone.named("Asia/Kathmandu")
        let f = try ServiceFixture(now: try berlin.at("2026-03-02", "08:10"), zone: berlin)
        defer { f.close() }
        let openDay = f.service.world.openDay

        // Nothing changed: nothing happens, not even a clock read.
        f.service.rereadZone()
        #expect(f.clockReads == 0 && f.logLines == [])

        // 08:10 in Berlin is 12:55 in Kathmandu: its 12:00 tick is before the snapshot's (08:00
        // Berlin), so nothing is crossed; the next wake is Kathmandu's 13:00, a quarter past in UTC.
        f.local = kathmandu
        f.service.rereadZone()
        #expect(f.logLines == ["time zone changed to Asia/Kathmandu"])
        #expect(f.signals == [] && f.writes == [])
        let next = try kathmandu.at("2026-03-02", "13:00")
        #expect(f.wakes == [next])
        #expect(f.service.world.openDay == openDay, "an open day's interval is fixed when it opens")

        f.forget()
        f.now = next
        f.service.refresh()
        #expect(f.signals == ["PropertiesChanged(WidgetEntry)", "EntryChanged"])
        #expect(f.entriesSignalled.map(\.date) == [next])
        #expect(try f.entriesSignalled.first?.nextDate == kathmandu.at("2026-03-02", "14:00"))
        #expect(try f.wakes == [kathmandu.at("2026-03-02", "14:00")])

        // The open day ends where it was fixed (Berlin's midnight); the next one at Kathmandu's.
        f.now = openDay.end + 60
        f.service.refresh()
        #expect(f.service.world.openDay.start == openDay.end)
        #expect(try f.service.world.openDay.end == kathmandu.at("2026-03-04", "00:00"))
    }

    @Test("a zone change that crosses a tick (Kathmandu → Berlin) emits EntryChanged once")
    func zoneChangeCrossingTick() throws {
        let berlin = try LocalZone.named("Europe/Berlin")
        let kathmandu = try LocalZone.named("Asia/Kathmandu")
        // 12:55 in Kathmandu: the snapshot is Kathmandu's 12:00 (06:15 UTC). In Berlin it is
        // 08:10, and Berlin's 08:00 tick (07:00 UTC) is later: a tick was crossed.
        let f = try ServiceFixture(now: try kathmandu.at("2026-03-02", "12:55"), zone: kathmandu)
        defer { f.close() }
        f.local = berlin
        f.service.rereadZone()
        #expect(f.signals == ["PropertiesChanged(WidgetEntry)", "EntryChanged"])
        #expect(try f.entriesSignalled.map(\.date) == [berlin.at("2026-03-02", "08:00")])
        #expect(try f.wakes == [berlin.at("2026-03-02", "09:00")])
        #expect(f.writes == ["save"])

        // And back: Kathmandu's latest tick is now behind the snapshot; nothing until its 13:00.
        f.forget()
        f.local = kathmandu
        f.service.rereadZone()
        #expect(f.signals == [] && f.writes == [])
        #expect(try f.wakes == [kathmandu.at("2026-03-02", "13:00")])
    }

    @Test("a tzdata file replaced under the daemon: the new rules are adopted")
    func tzdataReplaced() throws {
        let directory = try Self.zoneinfoCopy("Europe/Berlin")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/zoneinfo/Europe/Berlin"
        let environment = ["TZ": path]
        let berlin = LocalZone.resolve(environment: environment)
        try #require(berlin.problem == nil && berlin.zone.identifier == "Europe/Berlin")
        let f = try ServiceFixture(now: try berlin.at("2026-03-02", "08:10"), zone: berlin)
        defer { f.close() }
        f.resolveZone = { LocalZone.resolve(environment: environment) }

        // A tzdata upgrade renames a new file over the old; here, rules a quarter-hour off.
        try Self.replace(path, with: "/usr/share/zoneinfo/Asia/Kathmandu")
        let local = f.service.rereadZone()
        #expect(local.zone.identifier == "Europe/Berlin" && local.zone != berlin.zone)
        #expect(f.logLines == ["time zone changed to Europe/Berlin"])
        #expect(try f.wakes == [local.at("2026-03-02", "13:00")])

        // A damaged file: UTC, with the problem said once and reported; then repaired.
        f.forget()
        try Self.write(Array("not a zone file".utf8), to: path)
        f.service.rereadZone()
        f.service.rereadZone()
        #expect(f.service.zone == .utc)
        #expect(f.logLines.count == 2 && f.logLines.first?.contains("not a valid zone file") == true, "\(f.logLines)")
        #expect(f.service.problems.count == 1)
        f.forget()
        try Self.replace(path, with: "/usr/share/zoneinfo/Europe/Berlin")
        f.service.rereadZone()
        #expect(f.service.zone == berlin.zone && f.service.problems == [])
        #expect(f.logLines == ["time zone: the problem is fixed", "time zone changed to Europe/Berlin"])
    }

    /// A temporary directory holding `zoneinfo/<name>`, a copy of the system's file.
    static func zoneinfoCopy(_ name: String) throws -> String {
        var template = Array((NSTemporaryDirectory() + "/petservice-tz-XXXXXX").utf8CString)
        let directory = try #require(mkdtemp(&template).map { String(cString: $0) })
        let path = directory + "/zoneinfo/" + name
        try FileManager.default.createDirectory(
            atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try replace(path, with: "/usr/share/zoneinfo/" + name)
        return directory
    }

    /// Renames a copy of `source` over `path`, as a package upgrade does.
    static func replace(_ path: String, with source: String) throws {
        try write(Array(try #require(FileManager.default.contents(atPath: source))), to: path)
    }

    static func write(_ bytes: [UInt8], to path: String) throws {
        let temporary = path + ".new"
        try Data(bytes).write(to: URL(fileURLWithPath: temporary))
        try #require(rename(temporary, path) == 0)
    }
}
