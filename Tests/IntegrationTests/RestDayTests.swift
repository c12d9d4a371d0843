import DBusKit
import Foundation
import TestSupport
import Testing

/// Rest days end to end (petprogress(7) §3.1.1; §6.1 `SetRest`, `ListRestDays`, `GetHistory`; §6.2
/// `rest_day`): the real daemon on a private bus, a live closeout on a scaled clock, a catch-up
/// after days off, the timeline, and `SetRest`'s errors and signals.
@Suite("Rest days")
struct RestDayTests {
    static let ours = "io.petprogress.PetProgress1.Error."

    /// What the evening before midnight saw (gathered off the pool, asserted after).
    struct Evening: Sendable {
        var openDayAfterSetUp = ""
        var restDaysAfterSetUp: [String] = []
    }

    /// Monday 2026-03-02 23:55 in Berlin at 60×: midnight is 5 real seconds away. Off the pool, so
    /// it surely comes first: rollover on; a daily template (its instance today stays undone);
    /// Report 23:30 done on time (+2) and Email 20:00 done late (+1); Taxes, Walk and Bills left
    /// undone — 6 tasks, 2 done. Then `mark` sets the rest days.
    static func evening(_ world: World, mark: @escaping @Sendable (RawClient) throws -> Void) async throws -> Evening {
        try await offPool {
            _ = try PetDaemon(sandbox: world.sandbox, bus: world.bus, now: "2026-03-02T23:55:00+01:00", timeScale: 60)
            let client = try world.client()
            try client.setProperty("Rollover", .bool(true))
            _ = try client.addTaskFor("Stretch", "07:00", day: "", repeat: "daily")
            _ = try client.markDone(try client.addTask("Report", "23:30"))
            _ = try client.markDone(try client.addTask("Email", "20:00"))
            for (title, time) in [("Taxes", "22:00"), ("Walk", "21:00"), ("Bills", "18:00")] {
                _ = try client.addTask(title, time)
            }
            try mark(client)
            return Evening(
                openDayAfterSetUp: try client.status().string("open_day") ?? "",
                restDaysAfterSetUp: try client.restDays())
        }
    }

    @Test(
        "a rest day closes without judgement: completions award, undone tasks cost nothing, no daily result; rolled tasks land on a rest day that opens, with no recurring instance"
    )
    func aRestDayEndToEnd() async throws {
        let world = try await World("restday")
        defer { world.close() }
        let recorder = try SignalRecorder(bus: world.bus)
        defer { recorder.stop() }
        let evening = try await Self.evening(world) { try $0.setRest("today", "tomorrow", true) }
        try #require(evening.openDayAfterSetUp == "2026-03-02", "the set-up must finish before midnight")
        #expect(evening.restDaysAfterSetUp == ["2026-03-02", "2026-03-03"])
        let client = try world.client()
        #expect(await poll(timeout: .seconds(30)) { (try? client.status().string("open_day")) == "2026-03-03" })

        let (days, more) = try client.history("2026-03-02", "2026-03-02")
        let monday = try #require(days.first)
        #expect(days.count == 1 && !more)
        #expect(monday.bool("rest") == true)
        #expect(monday.int("tasks_done") == 2 && monday.int("tasks_total") == 6)
        #expect(monday.int("xp_change") == 3, "+2 and +1, nothing charged")
        #expect(monday.int("daily_xp") == 0)
        #expect(monday.int("stage_xp_open") == 0 && monday.int("stage_xp_close") == 3)
        #expect(try client.pet().int("stage_xp") == 3)

        // Tuesday opened as a rest day: the rolled one-offs, but no Stretch instance.
        let tuesday = try client.tasks()
        #expect(Set(tuesday.compactMap { $0.string("title") }) == ["Taxes", "Walk", "Bills"])
        #expect(tuesday.allSatisfy { $0.string("id")?.hasPrefix("20260303-") == true && $0.bool("done") == false })
        #expect(try client.entry().bool("rest_day") == true)
        #expect(try client.restDays() == ["2026-03-03"], "Monday's key left the set when it closed")
        // The closeout announced Tuesday's entry, a rest day.
        let announced = recorder.signals("PropertiesChanged").compactMap {
            $0.arguments.dropFirst().first?.vardictValue?["WidgetEntry"]?.vardictValue
        }
        #expect(announced.contains { $0.string("day_key") == "2026-03-03" && $0.bool("rest_day") == true })
    }

    @Test(
        "the same day marked and then unmarked before its end is judged: a miss per undone task and the daily result (petprogress(7) §2.1)"
    )
    func unmarkedBeforeItsEndTheDayIsJudged() async throws {
        let world = try await World("unmarked")
        defer { world.close() }
        let evening = try await Self.evening(world) {
            try $0.setRest("today", "today", true)
            try $0.setRest("today", "today", false)
        }
        try #require(evening.openDayAfterSetUp == "2026-03-02", "the set-up must finish before midnight")
        #expect(evening.restDaysAfterSetUp == [])
        let client = try world.client()
        #expect(await poll(timeout: .seconds(30)) { (try? client.status().string("open_day")) == "2026-03-03" })

        let monday = try #require(try client.history("2026-03-02", "2026-03-02").days.first)
        #expect(monday.bool("rest") == false)
        // 2 of 6 done: +3 for the completions, four misses (−8), rate 1/3 < 0.4 (−3).
        #expect(monday.int("xp_change") == -8)  // 3 - 8 - 3
        #expect(monday.int("daily_xp") == -3)
        #expect(monday.int("stage_xp_close") == 0, "Tadpole clamps at 0")
        #expect(try client.pet().int("stage_xp") == 0)
        // Tuesday is ordinary: its Stretch instance, and the rolled copies (charged on Monday).
        let tuesday = try client.tasks().compactMap { $0.string("title") }
        #expect(Set(tuesday) == ["Stretch", "Taxes", "Walk", "Bills"])
        #expect(try client.entry().bool("rest_day") == false)
    }

    @Test("the timeline projects no recurring instance for a marked next day, and marks its entries as rest days")
    func timelineOfAMarkedNextDay() async throws {
        let world = try await World("resttimeline")
        defer { world.close() }
        _ = try await world.daemon(now: "2026-03-02T10:30:00+01:00")
        let client = try world.client()
        _ = try client.addTaskFor("Stretch", "07:00", day: "", repeat: "daily")
        _ = try client.addTaskFor("Dentist", "09:30", day: "tomorrow")
        func tuesday() throws -> [[String: DBusValue]] {
            let timeline = try #require(try client.call("GetTimeline").first?.vardictArrayValue)
            return timeline.filter { $0.string("day_key") == "2026-03-03" }
        }
        #expect(try tuesday().allSatisfy { $0.int("tasks_total") == 2 && $0.bool("rest_day") == false })
        try client.setRest("tomorrow", "tomorrow", true)
        let marked = try tuesday()
        #expect(!marked.isEmpty)
        #expect(marked.allSatisfy { $0.int("tasks_total") == 1 && $0.bool("rest_day") == true })
        #expect(marked.allSatisfy { $0.string("next_task_title") == "Dentist" }, "tasks added for it stay")
        let timeline = try #require(try client.call("GetTimeline").first?.vardictArrayValue)
        #expect(timeline.filter { $0.string("day_key") == "2026-03-02" }.allSatisfy { $0.bool("rest_day") == false })
        #expect(try client.entry().bool("rest_day") == false)
    }

    @Test(
        "a catch-up across several days, some marked: each judged by its own flag, with the instances and rolled copies it would have had; the open rest day gets rolled tasks and no instance"
    )
    func catchUpAcrossMarkedDays() async throws {
        let world = try await World("restcatchup")
        defer { world.close() }
        let data = world.sandbox.path("data")
        var daemon = try await world.daemon(dataDirectory: data, now: "2026-03-02T20:00:00+01:00")
        var client = try world.client()
        try client.setProperty("Rollover", .bool(true))
        _ = try client.addTaskFor("Stretch", "21:00", day: "", repeat: "daily")
        _ = try client.addTask("Taxes", "22:00")
        #expect(try client.markDone(try client.addTask("Tidy", "20:00")) == 2)
        _ = try client.addTaskFor("Call mum", "12:00", day: "tomorrow")
        try client.setRest("tomorrow", "2026-03-04", true)
        try client.setRest("2026-03-06", "2026-03-06", true)
        #expect(try client.restDays() == ["2026-03-03", "2026-03-04", "2026-03-06"])
        #expect(await daemon.stop() == 0)

        daemon = try await world.daemon(dataDirectory: data, now: "2026-03-06T09:00:00+01:00")
        client = try world.client()
        let (days, more) = try client.history("2026-03-01", "")
        #expect(!more)
        #expect(days.map { $0.string("day_key") } == ["2026-03-02", "2026-03-03", "2026-03-04", "2026-03-05"])
        // Monday, ordinary: +2, two misses (−4), rate 1/3 (−3).
        #expect(days.first?.bool("rest") == false)
        #expect(days.first?.int("xp_change") == -5 && days.first?.int("daily_xp") == -3)  // 2 - 4 - 3
        // Tuesday and Wednesday, marked (no instance): the task added in advance and the rolled
        // Taxes, archived as rest, nothing charged.
        for day in days[1...2] {
            #expect(day.bool("rest") == true && day.int("xp_change") == 0 && day.int("daily_xp") == 0)
            #expect(day["tasks"]?.vardictArrayValue?.map { $0.string("title") } == ["Call mum", "Taxes"])
        }
        // Thursday, untouched after a touched Wednesday: its instance and the rolled copies, judged.
        let thursday = try #require(days.last)
        #expect(thursday.bool("rest") == false && thursday.bool("away") == false)
        #expect(thursday["tasks"]?.vardictArrayValue?.map { $0.string("title") } == ["Call mum", "Stretch", "Taxes"])
        #expect(thursday.int("xp_change") == -9)  // -6 - 3
        #expect(try client.status().string("last_closed_day") == "2026-03-05")
        // Friday, marked, opened now: Thursday's Call mum and Taxes rolled in; no Stretch.
        #expect(try client.tasks().map { $0.string("title") } == ["Call mum", "Taxes"])
        #expect(try client.entry().bool("rest_day") == true)
        #expect(try client.restDays() == ["2026-03-06"])
        #expect(await daemon.stop() == 0)
    }
}

extension RestDayTests {
    /// `dbus-send` to `SetRest`; the error name, or nil on success.
    static func setRest(_ world: World, _ from: String, _ to: String, _ rest: Bool) async throws -> String? {
        let result = try await world.dbusSend("SetRest", ["string:\(from)", "string:\(to)", "boolean:\(rest)"])
        return HostileInputTests.errorName(result)
    }

    @Test(
        "SetRest's errors come in petprogress(7) §3.1.1's order (malformed or reversed, closed day, beyond 365 days) and change nothing; the open day and the next 365 days can be marked"
    )
    func errorsInOrderAndTheBound() async throws {
        let world = try await World("resterrors")
        defer { world.close() }
        let data = world.sandbox.path("data")
        let first = try await world.daemon(dataDirectory: data, now: "2026-03-02T10:00:00+01:00")
        #expect(await first.stop() == 0)
        _ = try await world.daemon(dataDirectory: data, now: "2026-03-03T10:00:00+01:00")
        let client = try world.client()
        #expect(try client.status().string("last_closed_day") == "2026-03-02")
        #expect(try await Self.setRest(world, "2026-03-10", "2026-03-12", true) == nil)
        let marked = ["2026-03-10", "2026-03-11", "2026-03-12"]
        let mutations = try client.status().int("mutations")

        for (from, to, rest, expected) in [
            ("bogus", "2026-03-02", true, "InvalidArgument"),  // malformed beats closed
            ("2026-03-12", "2026-03-02", false, "InvalidArgument"),  // reversed beats closed
            ("tomorrow", "today", true, "InvalidArgument"),
            ("", "", true, "InvalidArgument"),
            ("2026-02-29", "today", true, "InvalidArgument"),
            ("today", "2026-03-32", false, "InvalidArgument"),
            ("2026-03-02", "2026-03-12", false, "ReadOnlyDay"),  // one closed day in the range
            ("2026-03-02", "2028-01-01", true, "ReadOnlyDay"),  // closed beats the bound
            ("2025-12-31", "2026-01-01", true, "ReadOnlyDay"),
            ("2026-03-10", "2027-03-04", false, "InvalidArgument"),  // 366 days after the open day
            ("2030-01-01", "2030-01-01", true, "InvalidArgument"),
        ] {
            let name = try await Self.setRest(world, from, to, rest)
            #expect(name == Self.ours + expected, "SetRest(\(from), \(to), \(rest))")
            #expect(try client.restDays() == marked, "nothing changed after SetRest(\(from), \(to))")
        }
        #expect(try client.status().int("mutations") == mutations)
        #expect(
            client.errorName("SetRest", [.string("today"), .string("today")])
                == "org.freedesktop.DBus.Error.InvalidArgs")

        // The bound itself: the open day and the 365 days after it.
        #expect(try await Self.setRest(world, "today", "2027-03-03", true) == nil)
        let all = try client.restDays()
        #expect(all.count == 366 && all.first == "2026-03-03" && all.last == "2027-03-03")
        #expect(Set(all).count == 366 && all == all.sorted())
        #expect(try await Self.setRest(world, "today", "2027-03-03", false) == nil)
        #expect(try client.restDays() == [])
    }

    @Test(
        "SetRest emits TasksChanged and a PropertiesChanged for WidgetEntry when, and only when, the open day's flag changes"
    )
    func signals() async throws {
        let world = try await World("restsignals")
        defer { world.close() }
        let recorder = try SignalRecorder(bus: world.bus)
        defer { recorder.stop() }
        _ = try await world.daemon(now: "2026-03-02T10:00:00+01:00")
        let client = try world.client()
        var expected = 0
        func entries() -> [[String: DBusValue]] {
            recorder.signals("PropertiesChanged").compactMap {
                $0.arguments.dropFirst().first?.vardictValue?["WidgetEntry"]?.vardictValue
            }
        }
        /// Adds a task (one TasksChanged, then one PropertiesChanged for WidgetEntry) and waits for
        /// the PropertiesChanged that follows its TasksChanged: any signal an earlier call caused
        /// has arrived by then (one connection, in order). Counting entries instead was one short:
        /// the start-up tick sends its own PropertiesChanged, so under load the marker's entry could
        /// still arrive after `before` was counted below.
        func marker() async throws {
            _ = try client.addTask("Marker \(expected)", "12:00")
            expected += 1
            #expect(
                await recorder.wait { all in
                    let changes = all.indices.filter { all[$0].member == "TasksChanged" }
                    guard changes.count >= expected, let last = changes.last else { return false }
                    return all[(last + 1)...].contains { $0.member == "PropertiesChanged" }
                })
        }
        try await marker()
        let startUp = entries().count - expected  // the start-up tick's own, if it sent one
        try client.setRest("tomorrow", "2026-03-10", true)  // not the open day
        try await marker()
        #expect(recorder.count("TasksChanged") == expected)

        try client.setRest("today", "today", true)
        expected += 1
        try await marker()
        #expect(recorder.count("TasksChanged") == expected)
        #expect(entries().contains { $0.bool("rest_day") == true })

        try client.setRest("today", "tomorrow", true)  // the open day already marked: no change
        #expect(client.errorName("SetRest", [.string("today"), .string("2099-01-01"), .bool(false)]) != nil)
        try await marker()
        #expect(recorder.count("TasksChanged") == expected)

        let before = entries().count
        try client.setRest("2026-03-02", "2026-03-02", false)
        expected += 1
        try await marker()
        #expect(recorder.count("TasksChanged") == expected)
        #expect(entries().dropFirst(before).first?.bool("rest_day") == false)
        #expect(entries().count == expected + startUp, "one entry per change, none for a call that changed nothing")
        #expect(recorder.count("EntryChanged") == 0, "never for a mutation")
    }
}
