import DBusKit
import Foundation
import TestSupport
import Testing

/// A simulated evening with `--now` and `--time-scale` (petprogress(7) §3, §3.1, §3.2, §9): tasks added, done
/// on time, early and late, snoozed, undone and redone; three ticks and a closeout crossed.
///
/// 300× (an hour in 12 real seconds), from 21:02 on Monday 2026-03-02 in Europe/Berlin (+01:00, no
/// DST that week). All mutations happen in the 21:00 hour with at least 30 simulated minutes of
/// margin on every grace decision, and the test checks it really was still the 21:00 hour.
@Suite("Simulated day")
struct SimulatedDayTests {
    @Test(
        "a day with ticks and a closeout: xp per the grace rule, EntryChanged once per tick, TasksChanged per mutation")
    func eveningAndCloseout() async throws {
        let world = try await World("simday")
        defer { world.close() }
        let recorder = try SignalRecorder(bus: world.bus)
        defer { recorder.stop() }
        let tick21 = unix("2026-03-02T21:00:00+01:00")
        // The race against the simulated clock runs off the pool; its observations are checked below.
        let evening = try await offPool { [world] in try Evening.run(world: world, recorder: recorder) }
        let client = try world.client()
        #expect(evening.start.int("date") == tick21)
        #expect(evening.start.int("stage_xp") == 0)
        for (what, seen) in evening.tasksChangedSeen { #expect(seen, "TasksChanged after \(what)") }
        let mutations = evening.tasksChangedSeen.count
        #expect(mutations == 15)
        let ids = evening.ids
        func id(_ title: String) throws -> String { try #require(ids[title]) }
        // Within 60 minutes of 21:0x: on time (2). Journal 23:30 is ≥ 2 h early and Dishes 19:00
        // ≥ 2 h late: both outside the grace window (1).
        #expect(evening.xp == ["Stretch": 2, "Tea": 2, "Floss": 2, "Journal": 1, "Dishes": 1])
        #expect(evening.until == unix("2026-03-02T22:45:00+01:00"), "max(now, 22:30) + 15 min")
        #expect(evening.redoXP == 1)
        #expect(evening.pets == [8, 7, 8], "after the snooze, the undo and the redo")

        // Mid-hour: the task part is live, the pet part still shows the 21:00 snapshot.
        let mid = evening.mid
        try #require(mid.int("date") == tick21, "the mutations must finish within the 21:00 hour")
        #expect(mid.int("stage_xp") == 0)
        #expect(mid.petPart == evening.start.petPart)
        #expect(mid.int("tasks_done") == 5)
        #expect(mid.int("tasks_total") == 7)
        #expect(try mid.string("next_task_id") == id("Lights"))
        #expect(mid.string("next_task_time") == "22:45")
        #expect(evening.entryChangedAtMid == 0, "no EntryChanged at start-up or for mutations")

        // 22:00: the completions show.
        let tick22 = unix("2026-03-02T22:00:00+01:00")
        #expect(
            await recorder.wait(timeout: .seconds(40)) {
                $0.contains { $0.member == "EntryChanged" && $0.entry.int("date") == tick22 }
            })
        let at22 = try #require(recorder.signals("EntryChanged").first)
        #expect(at22.entry.int("date") == tick22)
        #expect(at22.entry.int("stage_xp") == 8)
        #expect(at22.entry.int("next_date") == unix("2026-03-02T23:00:00+01:00"))
        #expect(try client.entry().int("stage_xp") == 8)

        // Midnight: the closeout (Lights and Bed missed: 8 → 6 → 4; 5 of 7 done = 0.71: no daily
        // result), then the 00:00 snapshot shows it.
        let tick00 = unix("2026-03-03T00:00:00+01:00")
        #expect(
            await recorder.wait(timeout: .seconds(60)) {
                $0.contains { $0.member == "EntryChanged" && $0.entry.int("date") == tick00 }
            })
        let ticks = recorder.signals("EntryChanged")
        let dates = ticks.compactMap { $0.entry.int("date") }
        #expect(
            Array(dates.prefix(3)) == [tick22, unix("2026-03-02T23:00:00+01:00"), tick00],
            "one EntryChanged per tick, in order")
        #expect(Set(dates).count == dates.count, "never twice for one tick")
        #expect(zip(dates, dates.dropFirst()).allSatisfy { $1 - $0 == 3600 }, "no tick skipped: \(dates)")
        let atMidnight = try #require(ticks.first { $0.entry.int("date") == tick00 }).entry
        #expect(atMidnight.int("stage_xp") == 4)
        #expect(atMidnight.int("stage_index") == 0)
        #expect(atMidnight.string("day_key") == "2026-03-03")
        #expect(atMidnight.int("tasks_total") == 0)
        #expect(ticks.filter { $0.entry.int("date") == tick22 }.first?.entry.int("stage_xp") == 8)
        #expect(
            ticks.filter { $0.entry.int("date") == unix("2026-03-02T23:00:00+01:00") }.first?.entry.int("stage_xp") == 8
        )

        let status = try client.status()
        #expect(status.string("last_closed_day") == "2026-03-02")
        #expect(status.string("open_day") == "2026-03-03")
        #expect(try client.pet().int("stage_xp") == 4)
        #expect(try client.tasks().isEmpty)
        // The closed day from history: in effective order, with the awards and the misses.
        let closed = try client.tasks("2026-03-02")
        #expect(closed.map { $0.string("title") } == ["Dishes", "Stretch", "Tea", "Floss", "Lights", "Journal", "Bed"])
        #expect(closed.map { $0.bool("done") } == [true, true, true, true, false, true, false])
        #expect(closed.map { $0.int("xp") } == [1, 2, 2, 2, 0, 1, 0])
        #expect(closed.allSatisfy { $0.bool("overdue") == false && $0.bool("is_next") == false })
        #expect(
            closed.first { $0.string("title") == "Lights" }?.int("snoozed_until") == unix("2026-03-02T22:45:00+01:00"))

        // TasksChanged: one per mutation plus one for the closeout, none for ticks.
        #expect(
            recorder.count("TasksChanged") == mutations + 1, "\(recorder.count("TasksChanged")) vs \(mutations) + 1")
        // The WidgetEntry property announced the closed-out day.
        let widgetChanges = recorder.signals("PropertiesChanged").compactMap { signal -> [String: DBusValue]? in
            guard signal.arguments.first?.stringValue == PetDaemon.interface else { return nil }
            return signal.arguments.dropFirst().first?.vardictValue?["WidgetEntry"]?.vardictValue
        }
        #expect(widgetChanges.contains { $0.string("day_key") == "2026-03-03" && $0.int("stage_xp") == 4 })
        #expect(widgetChanges.count >= mutations + 1)
        for date in dates {
            #expect(
                widgetChanges.contains { $0.int("date") == date },
                "PropertiesChanged carries the entry of the \(date) tick")
        }

        // A closed day's tasks are read-only, and that check runs before the argument check.
        let dishes = try id("Dishes")
        #expect(
            client.errorName("MarkDone", [.string(try id("Bed"))]) == "io.petprogress.PetProgress1.Error.ReadOnlyDay")
        #expect(client.errorName("Undo", [.string(dishes)]) == "io.petprogress.PetProgress1.Error.ReadOnlyDay")
        #expect(
            client.errorName("UpdateTask", [.string(dishes), .string(""), .string("99:99")])
                == "io.petprogress.PetProgress1.Error.ReadOnlyDay")
        #expect(client.errorName("DeleteTask", [.string(dishes)]) == "io.petprogress.PetProgress1.Error.ReadOnlyDay")
    }
}

extension SimulatedDayTests {
    @Test(
        "at 10 simulated hours a second, reads never go backwards: entry dates, open days and EntryChanged only move forward"
    )
    func fastClockNeverGoesBack() async throws {
        let world = try await World("fastclock")
        defer { world.close() }
        let recorder = try SignalRecorder(bus: world.bus)
        defer { recorder.stop() }
        _ = try await world.daemon(now: "2026-03-02T20:00:00+01:00", timeScale: 36_000)
        let client = try world.client()
        _ = try client.addTaskFor("Daily", "07:00", day: "", repeat: "daily")
        var dates: [Int64] = []
        var days: [String] = []
        // Read until midnight has passed and there are enough reads (bounded, for a starved run).
        let deadline = ContinuousClock.now + .seconds(30)
        while dates.count < 30 || Set(days).count < 2, ContinuousClock.now < deadline {
            let entry = try client.entry()
            #expect(entry.int("next_date").map { $0 > entry.int("date") ?? .max } == true)
            dates.append(entry.int("date") ?? 0)
            days.append(try client.status().string("open_day") ?? "")
        }
        #expect(dates.count > 10)
        #expect(zip(dates, dates.dropFirst()).allSatisfy { $0 <= $1 }, "the snapshot never goes back")
        #expect(zip(days, days.dropFirst()).allSatisfy { $0 <= $1 }, "the open day never goes back")
        #expect(Set(days).count >= 2, "midnight was crossed: \(Set(days).sorted())")
        #expect(await recorder.wait { $0.filter { $0.member == "EntryChanged" }.count >= 5 })
        let ticks = recorder.signals("EntryChanged").compactMap { $0.entry.int("date") }
        #expect(zip(ticks, ticks.dropFirst()).allSatisfy { $0 < $1 }, "each EntryChanged is for a later tick")
        // Europe/Berlin in early March: every tick is a whole UTC hour.
        #expect(ticks.allSatisfy { $0 % 3600 == 0 })
        // Each new day got its instance of the daily template.
        let open = try #require(days.last)
        #expect(try client.tasks().map { $0.string("day_key") }.allSatisfy { $0 != nil && $0! >= open })
        #expect(try client.tasks().contains { $0.string("title") == "Daily" })
    }
}

/// What the 21:00 hour of the simulated evening observed (gathered off the pool, asserted after).
struct Evening: Sendable {
    var start: [String: DBusValue] = [:]
    var ids: [String: String] = [:]
    var tasksChangedSeen: [(String, Bool)] = []
    var xp: [String: Int32] = [:]
    var until: Int64?
    var pets: [Int64?] = []
    var redoXP: Int32?
    var mid: [String: DBusValue] = [:]
    var entryChangedAtMid = 0

    /// Starts the daemon at 21:02 (300×) and does every mutation, each followed by its TasksChanged.
    static func run(world: World, recorder: SignalRecorder) throws -> Evening {
        var seen = Evening()
        _ = try PetDaemon(sandbox: world.sandbox, bus: world.bus, now: "2026-03-02T21:02:00+01:00", timeScale: 300)
        let client = try world.client()
        seen.start = try client.entry()
        func mutated(_ what: String) {
            let count = seen.tasksChangedSeen.count + 1
            seen.tasksChangedSeen.append(
                (what, recorder.waitBlocking { $0.filter { $0.member == "TasksChanged" }.count >= count }))
        }
        for (title, time) in [
            ("Stretch", "21:00"), ("Tea", "21:15"), ("Floss", "21:30"), ("Journal", "23:30"),
            ("Dishes", "19:00"), ("Bed", "23:45"), ("Lights", "22:30"),
        ] {
            seen.ids[title] = try client.addTask(title, time)
            mutated("adding \(title)")
        }
        func id(_ title: String) throws -> String {
            guard let id = seen.ids[title] else { throw HarnessError("no id for \(title)") }
            return id
        }
        for title in ["Stretch", "Tea", "Floss", "Journal", "Dishes"] {
            seen.xp[title] = try client.markDone(try id(title))
            mutated("done \(title)")
        }
        seen.until = try client.call("Snooze", [.string(try id("Lights"))]).first?.int64Value
        mutated("snooze")
        seen.pets.append(try client.pet().int("stage_xp"))
        try client.call("Undo", [.string(try id("Journal"))])
        mutated("undo")
        seen.pets.append(try client.pet().int("stage_xp"))
        seen.redoXP = try client.markDone(try id("Journal"))
        mutated("redo")
        seen.pets.append(try client.pet().int("stage_xp"))
        seen.mid = try client.entry()
        seen.entryChangedAtMid = recorder.count("EntryChanged")
        return seen
    }
}
