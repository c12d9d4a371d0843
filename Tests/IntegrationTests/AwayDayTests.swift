import DBusKit
import Foundation
import TestSupport
import Testing

/// Away and return days end to end (petprogress(7) §3.1, "Away days"; §6.1 `GetHistory`'s `away`
/// and `return`): the real daemon on a private bus, across the days on a scaled clock and stopped
/// and started again later, with `petctl history` and `petctl log` showing the days.
@Suite("Away days")
struct AwayDayTests {
    /// Monday 2026-03-02, Berlin: five daily templates, all of Monday's instances done.
    static func monday(_ world: World, data: String) async throws {
        let daemon = try await world.daemon(dataDirectory: data, now: "2026-03-02T10:00:00+01:00")
        let client = try world.client()
        for n in 1...5 { _ = try client.addTaskFor("Task \(n)", "1\(n):00", day: "", repeat: "daily") }
        for task in try client.tasks() { _ = try client.markDone(try #require(task.string("id"))) }
        #expect(await daemon.stop() == 0)
    }

    /// The week after Monday as history records it, by day key: away, return, xp_change, daily_xp
    /// and tasks_total.
    static func week(_ client: RawClient) throws -> [String: String] {
        let days = try client.history("2026-03-03", "2026-03-08").days
        return Dictionary(
            uniqueKeysWithValues: days.map { d in
                (
                    d.string("day_key") ?? "?",
                    "away \(d.bool("away") ?? false) return \(d.bool("return") ?? false) xp \(d.int("xp_change") ?? 0) "
                        + "daily \(d.int("daily_xp") ?? 0) tasks \(d.int("tasks_total") ?? 0)"
                )
            })
    }

    static let charged = "away false return false xp -13 daily -3 tasks 5"
    static let away = "away true return false xp 0 daily 0 tasks 5"

    @Test(
        "a week away costs its first day only, whether the daemon ran across the days or was stopped; the return day is judged as a rest day",
        arguments: [false, true])
    func aWeekAway(running: Bool) async throws {
        let world = try await World(running ? "away-run" : "away-stop")
        defer { world.close() }
        let data = world.sandbox.path("data")
        try await Self.monday(world, data: data)
        if running {
            // 8 hours a real second: a day every 3 s, Tuesday to Sunday closed as they end.
            let daemon = try await world.daemon(
                dataDirectory: data, now: "2026-03-02T23:59:00+01:00", timeScale: 28_800)
            let client = try world.client()
            #expect(
                await poll(timeout: .seconds(90)) { (try? client.status().string("open_day")) == "2026-03-09" })
            #expect(await daemon.stop() == 0)
        }
        // Monday 9th, back: one task of five done.
        var daemon = try await world.daemon(dataDirectory: data, now: "2026-03-09T10:00:00+01:00")
        var client = try world.client()
        let week = try Self.week(client)
        #expect(week["2026-03-03"] == Self.charged, "skipping a day costs that day")
        for day in 4...8 { #expect(week["2026-03-0\(day)"] == Self.away, "2026-03-0\(day)") }
        let tasks = try client.tasks()
        #expect(tasks.count == 5, "the day's instances, as every day of the week had them")
        #expect(try client.markDone(try #require(tasks.first?.string("id"))) > 0)
        #expect(await daemon.stop() == 0)

        daemon = try await world.daemon(dataDirectory: data, now: "2026-03-10T10:00:00+01:00")
        client = try world.client()
        let back = try #require(try client.history("2026-03-09", "2026-03-09").days.first)
        #expect(back.bool("return") == true && back.bool("away") == false && back.bool("rest") == false)
        #expect(back.int("daily_xp") == 0 && (back.int("xp_change") ?? 0) > 0, "gains, never loses")
        #expect(back.int("stage_xp_close") ?? 0 > back.int("stage_xp_open") ?? 0)
        #expect(await daemon.stop() == 0)
    }

    @Test(
        "a weekend without tasks is passed over; tasks added in advance and rest marks touch their day; template edits do not; history and log show away and return days"
    )
    func whatTouchesADay() async throws {
        let world = try await World("away-touch")
        defer { world.close() }
        let data = world.sandbox.path("data")
        func session(_ now: String, _ body: (RawClient) throws -> Void) async throws {
            let daemon = try await world.daemon(dataDirectory: data, now: now)
            try body(try world.client())
            #expect(await daemon.stop() == 0)
        }
        // Friday 6th: two weekday templates, both done.
        try await session("2026-03-06T10:00:00+01:00") { c in
            _ = try c.addTaskFor("A", "11:00", day: "", repeat: "weekdays")
            _ = try c.addTaskFor("B", "12:00", day: "", repeat: "weekdays")
            for task in try c.tasks() { _ = try c.markDone(try #require(task.string("id"))) }
        }
        // Monday 9th, after a weekend without tasks: A done; Thursday marked and unmarked.
        try await session("2026-03-09T10:00:00+01:00") { c in
            _ = try c.markDone(try #require(c.tasks().first?.string("id")))
            try c.setRest("2026-03-12", "2026-03-12", true)
            try c.setRest("2026-03-12", "2026-03-12", false)
        }
        // Wednesday 11th: only a template renamed.
        try await session("2026-03-11T10:00:00+01:00") { c in
            let template = try #require(c.call("ListTemplates").first?.vardictArrayValue?.first?.string("id"))
            _ = try c.call("UpdateTask", [.string(template), .string("A renamed"), .string("")])
        }
        // Monday 16th: only a task added for Tuesday.
        try await session("2026-03-16T10:00:00+01:00") { c in
            _ = try c.addTaskFor("Dentist", "09:00", day: "tomorrow")
        }
        let daemon = try await world.daemon(dataDirectory: data, now: "2026-03-18T10:00:00+01:00")
        let client = try world.client()
        let days = try client.history("2026-03-09", "2026-03-17").days
        func kind(_ d: [String: DBusValue]) -> String {
            d.bool("away") == true ? "away" : d.bool("return") == true ? "return" : "judged \(d.int("xp_change") ?? 0)"
        }
        let kinds = Dictionary(uniqueKeysWithValues: days.map { ($0.string("day_key") ?? "?", kind($0)) })
        #expect(kinds["2026-03-09"]?.hasPrefix("judged") == true, "Friday, before the weekend, was touched")
        #expect(kinds["2026-03-10"] == "judged -7", "untouched after a touched day: charged")
        #expect(kinds["2026-03-11"] == "away", "a template edit does not touch")
        #expect(kinds["2026-03-12"] == "return", "a rest mark and unmark touch")
        #expect(kinds["2026-03-13"] == "judged -7")
        #expect(kinds["2026-03-14"] == nil && kinds["2026-03-15"] == nil, "no tasks: no record")
        #expect(kinds["2026-03-16"] == "away", "Friday untouched, past the weekend")
        #expect(kinds["2026-03-17"] == "return", "a task added in advance touches")

        let plain = try await world.petctlOK(["history", "--plain", "--days", "10"])
        let line = { (key: String) in plain.split(separator: "\n").first { $0.hasPrefix(key) }.map(String.init) ?? "" }
        #expect(line("2026-03-11").contains(": away, 0 of 2 done, ±0 XP"), "\(plain)")
        #expect(line("2026-03-12").contains(": return day, 0 of 2 done, ±0 XP"), "\(plain)")
        let log = try await world.petctlOK(["log", "2026-03-12", "--days", "2", "--color", "never"], columns: 100)
        #expect(log.contains("no daily result: away"), "\(log)")
        #expect(log.contains("no daily result: return day"), "\(log)")
        #expect(log.contains("(not done, away)") && log.contains("(not done, return day)"), "\(log)")
        #expect(await daemon.stop() == 0)
    }

    @Test(
        "the upgrade from a store written by the release before (schema 2) counts its open and last closed day as touched"
    )
    func theUpgradeCountsTheOpenAndLastClosedDayAsTouched() async throws {
        let world = try await World("away-upgrade")
        defer { world.close() }
        let data = world.sandbox.path("data")
        let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("PetStoreTests/Fixtures/schema2").path
        try FileManager.default.createDirectory(
            atPath: data, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        for name in ["state.json", "history-2026.jsonl"] {
            try FileManager.default.copyItem(atPath: "\(fixture)/\(name)", toPath: "\(data)/\(name)")
        }
        // Monday 9th was open in the old store; nothing happens to it after the upgrade.
        let daemon = try await world.daemon(dataDirectory: data, now: "2026-03-11T15:30:00+01:00")
        let client = try world.client()
        let monday = try #require(try client.history("2026-03-09", "2026-03-09").days.first)
        #expect(
            monday.bool("away") == false && monday.bool("return") == false, "judged: the open day counts as touched")
        #expect(monday.int("xp_change") == -5 && monday.int("daily_xp") == -3)  // 2 - 4 - 3
        let state = try String(contentsOfFile: data + "/state.json", encoding: .utf8)
        #expect(state.contains(#""schema":4"#))
        #expect(await daemon.stop() == 0)
    }
}
