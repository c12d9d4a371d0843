import DBusKit
import Foundation
import TestSupport
import Testing

/// Restarts: the hourly freeze, catch-up after days off, and a reset time whose closeout falls
/// between two ticks (petprogress(7) §3.1, §3.2). Each run stops the daemon with SIGTERM and starts a new one
/// on the same data directory with a later `--now`.
@Suite("Restarts")
struct RestartTests {
    @Test(
        "a restart in the same hour keeps the pet part frozen and emits no EntryChanged; the next hour's start-up shows the change"
    )
    func freezeAcrossRestart() async throws {
        let world = try await World("freeze")
        defer { world.close() }
        let recorder = try SignalRecorder(bus: world.bus)
        defer { recorder.stop() }
        let data = world.sandbox.path("data")
        var daemon = try await world.daemon(dataDirectory: data, now: "2026-03-02T08:30:00+01:00")
        var client = try world.client()
        #expect(try client.markDone(try client.addTask("Feed", "08:00")) == 2)
        #expect(try client.markDone(try client.addTask("Walk", "09:00")) == 2)
        let before = try client.entry()
        #expect(before.int("date") == unix("2026-03-02T08:00:00+01:00"))
        #expect(before.int("stage_xp") == 0)
        #expect(await daemon.stop() == 0)

        daemon = try await world.daemon(dataDirectory: data, now: "2026-03-02T08:50:00+01:00")
        client = try world.client()
        let after = try client.entry()
        #expect(after.int("date") == before.int("date"))
        #expect(after.petPart == before.petPart, "a restart in the same hour does not retake the snapshot")
        #expect(after.int("tasks_done") == 2)
        #expect(try client.pet().int("stage_xp") == 4)
        try await Task.sleep(for: .seconds(1))
        #expect(recorder.count("EntryChanged") == 0)
        #expect(await daemon.stop() == 0)

        // Started after 09:00: the snapshot is taken at start-up from the state as of 09:00, silently.
        daemon = try await world.daemon(dataDirectory: data, now: "2026-03-02T09:05:00+01:00")
        client = try world.client()
        let later = try client.entry()
        #expect(later.int("date") == unix("2026-03-02T09:00:00+01:00"))
        #expect(later.int("stage_xp") == 4)
        try await Task.sleep(for: .seconds(1))
        #expect(recorder.count("EntryChanged") == 0, "never at start-up")
        #expect(await daemon.stop() == 0)
    }

    @Test("catch-up after three days off: each ended day closed in order, neutral empty days, history readable")
    func catchUpAfterThreeDays() async throws {
        let world = try await World("catchup")
        defer { world.close() }
        let recorder = try SignalRecorder(bus: world.bus)
        defer { recorder.stop() }
        let data = world.sandbox.path("data")
        var daemon = try await world.daemon(dataDirectory: data, now: "2026-03-02T08:30:00+01:00")
        var client = try world.client()
        var ids: [String] = []
        // Five on time (10 XP: Tadpole → Minnow, surplus dropped), then one early (+1): (1, 1).
        for time in ["08:00", "08:15", "08:30", "09:00", "09:15"] {
            let id = try client.addTask("On time \(time)", time)
            #expect(try client.markDone(id) == 2, "\(time)")
            ids.append(id)
        }
        let early = try client.addTask("Early", "11:00")
        #expect(try client.markDone(early) == 1)
        let missed = try client.addTask("Missed", "18:00")
        let plan = try client.addTaskFor("Plan", "09:00", day: "tomorrow")
        #expect(plan.hasPrefix("20260303-"))
        let pet = try client.pet()
        #expect(pet.int("stage_index") == 1)
        #expect(pet.int("stage_xp") == 1)
        #expect(await daemon.stop() == 0)

        // Three days later. 03-02 closes: Missed (1,1)→(1,-1)→(0,8); 6/7 ≥ 0.8: +3 → (0,11) → (1,0).
        // 03-03 (only the task added in advance): Plan missed (1,-2)→(0,7); 0/1 < 0.4: -3 → (0,4).
        // 03-04 had nothing: neutral. The daemon is now in 03-05.
        daemon = try await world.daemon(dataDirectory: data, now: "2026-03-05T10:30:00+01:00")
        client = try world.client()
        let status = try client.status()
        #expect(status.string("last_closed_day") == "2026-03-04")
        #expect(status.string("open_day") == "2026-03-05")
        let now = try client.pet()
        #expect(now.int("stage_index") == 0)
        #expect(now.int("stage_xp") == 4)
        #expect(now.string("stage_name") == "Tadpole")
        let entry = try client.entry()
        #expect(entry.int("date") == unix("2026-03-05T10:00:00+01:00"))
        #expect(entry.petPart == now, "every closeout is dated before the 10:00 tick")
        #expect(entry.string("day_key") == "2026-03-05")
        #expect(entry.int("tasks_total") == 0)

        let first = try client.tasks("2026-03-02")
        #expect(first.map { $0.string("id") } == ids + [early, missed])
        #expect(first.map { $0.bool("done") } == [true, true, true, true, true, true, false])
        #expect(first.map { $0.int("xp") } == [2, 2, 2, 2, 2, 1, 0])
        #expect(first.allSatisfy { $0.string("day_key") == "2026-03-02" })
        let second = try client.tasks("2026-03-03")
        #expect(second.map { $0.string("id") } == [plan])
        #expect(second.first?.bool("done") == false)
        #expect(try client.tasks("2026-03-04").isEmpty, "a neutral day has no record")
        #expect(try client.tasks("2026-03-01").isEmpty)
        #expect(try client.tasks("2026-03-06").isEmpty, "tomorrow: nothing added")
        try await Task.sleep(for: .seconds(1))
        #expect(recorder.count("EntryChanged") == 0, "catch-up at start-up emits no EntryChanged")

        // Check order on closed days: NotFound, then ReadOnlyDay before InvalidArgument/AlreadyDone/NotDone.
        let error = "io.petprogress.PetProgress1.Error."
        #expect(
            client.errorName("UpdateTask", [.string("20260302-999"), .string(""), .string("99:99")]) == error
                + "NotFound")
        #expect(client.errorName("MarkDone", [.string(ids[0])]) == error + "ReadOnlyDay")
        #expect(client.errorName("Undo", [.string(missed)]) == error + "ReadOnlyDay")
        #expect(client.errorName("Snooze", [.string(plan)]) == error + "ReadOnlyDay")
        #expect(
            client.errorName("UpdateTask", [.string(ids[0]), .string("\u{7}"), .string("25:00")]) == error
                + "ReadOnlyDay")
        #expect(client.errorName("DeleteTask", [.string(ids[0])]) == error + "ReadOnlyDay")
        #expect(try client.status().int("mutations") == status.int("mutations"))
        #expect(await daemon.stop() == 0)
    }

    @Test("reset 04:30, started 04:40: the 04:00 snapshot excludes the 04:30 closeout, which shows at 05:00")
    func resetBetweenTicks() async throws {
        let world = try await World("reset0430")
        defer { world.close() }
        let recorder = try SignalRecorder(bus: world.bus)
        defer { recorder.stop() }
        let data = world.sandbox.path("data")
        var daemon = try await world.daemon(dataDirectory: data, now: "2026-03-02T08:30:00+01:00")
        var client = try world.client()
        // The new reset time shapes the next day: 03-03 runs from midnight to 03-04 04:30.
        try client.setProperty("ResetTime", .string("04:30"))
        for time in ["08:00", "08:15", "09:00"] {
            #expect(try client.markDone(try client.addTask("Task \(time)", time)) == 2)
        }
        _ = try client.addTaskFor("Plan", "09:00", day: "tomorrow")
        #expect(try client.pet().int("stage_xp") == 6)
        #expect(await daemon.stop() == 0)

        // 03-02 closes at 03-03 00:00: 3/3 → +3 → 9. 03-03 closes at 03-04 04:30: Plan missed → 7,
        // 0/1 → -3 → 4. Start at 04:40, 180× (an hour in 20 s): the 04:00 snapshot shows 9.
        // Started and read off the pool: the reads must land before 05:00 on the simulated clock.
        let (started, status, livePet, entry) = try await offPool { [world] in
            let daemon = try PetDaemon(
                sandbox: world.sandbox, bus: world.bus, dataDirectory: data,
                now: "2026-03-04T04:40:00+01:00", timeScale: 180)
            let client = try world.client()
            return (daemon, try client.status(), try client.pet(), try client.entry())
        }
        daemon = started
        client = try world.client()
        #expect(status.string("last_closed_day") == "2026-03-03")
        #expect(status.string("open_day") == "2026-03-04")
        #expect(livePet.int("stage_xp") == 4)
        try #require(entry.int("date") == unix("2026-03-04T04:00:00+01:00"), "read within the 04:00 hour")
        #expect(entry.int("stage_xp") == 9, "the 04:00 snapshot: only the closeouts dated at or before 04:00")
        #expect(entry.string("day_key") == "2026-03-04")

        let tick05 = unix("2026-03-04T05:00:00+01:00")
        #expect(await recorder.wait(timeout: .seconds(40)) { $0.contains { $0.member == "EntryChanged" } })
        let ticks = recorder.signals("EntryChanged")
        #expect(ticks.first?.entry.int("date") == tick05, "the first EntryChanged is the 05:00 tick, none at start-up")
        #expect(ticks.first?.entry.int("stage_xp") == 4)
        #expect(try client.entry().int("stage_xp") == 4)
        #expect(await daemon.stop() == 0)
    }
}
