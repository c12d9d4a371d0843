import Foundation
import TestSupport
import Testing

/// `petctl log` (petprogress(7) §7): every event of a closed day with its XP in the rules' order, the pet
/// before and after, and a record that does not add up shown as such. Expected lines are written
/// by hand.
@Suite("petctl log")
struct LogCommandTests {
    /// Monday 2 March: Write report (14:30) done at 14:31, on time; Email (17:00) done at 18:02,
    /// 62 minutes late; Walk (19:00) never done. Tuesday 3 March, marked as a rest day: Read
    /// (20:00) never touched. Each step is a daemon started with `--now` at that instant.
    static func script(_ world: World, data: String) async throws {
        var daemon = try await world.daemon(dataDirectory: data, now: "2026-03-02T14:31:00+01:00")
        var client = try world.client()
        _ = try client.markDone(try client.addTask("Write report", "14:30"))
        _ = try client.addTask("Email", "17:00")
        _ = try client.addTask("Walk", "19:00")
        #expect(await daemon.stop() == 0)

        daemon = try await world.daemon(dataDirectory: data, now: "2026-03-02T18:02:00+01:00")
        client = try world.client()
        let email = try #require(try client.tasks().first { $0.string("title") == "Email" }?.string("id"))
        #expect(try client.markDone(email) == 1)
        #expect(await daemon.stop() == 0)

        daemon = try await world.daemon(dataDirectory: data, now: "2026-03-03T10:00:00+01:00")
        client = try world.client()
        _ = try client.addTask("Read", "20:00")
        try client.setRest("today", "today", true)
        #expect(await daemon.stop() == 0)
    }

    @Test("a judged day (on time, late, missed) and a rest day (one task untouched): exactly the expected lines")
    func aScriptedDay() async throws {
        let world = try await World("ctl-log")
        defer { world.close() }
        let data = world.sandbox.path("data")
        try await Self.script(world, data: data)
        _ = try await world.daemon(dataDirectory: data, now: "2026-03-04T10:00:00+01:00")

        // Tadpole 0: +2, +1, −2 → 1; 2 of 3 done is no daily result. Tuesday changes nothing.
        let wide = try await world.petctlOK(["log", "--days", "2"], columns: 80)
        #expect(
            wide == """
                Mon 2 Mar  +2 Write report (on time, 14:31)  +1 Email (late, 18:02)
                           −2 Walk (missed)  no daily result (2 of 3 done)
                           → Tadpole 1/10 (was Tadpole 0/10)
                Tue 3 Mar  ±0 Read (not done, rest day)  no daily result: rest day
                           → Tadpole 1/10 (unchanged)

                """, "\n\(wide)")
        let narrow = try await world.petctlOK(["log", "2026-03-02", "--days", "2"], columns: 40)
        #expect(
            narrow == """
                Sun 1 Mar
                  no record (nothing changed that day)
                Mon 2 Mar
                  +2 Write report (on time, 14:31)
                  +1 Email (late, 18:02)
                  −2 Walk (missed)
                  no daily result (2 of 3 done)
                  → Tadpole 1/10 (was Tadpole 0/10)

                """, "\n\(narrow)")
        // The default is the last closed day alone.
        #expect(try await world.petctlOK(["log"], columns: 80).hasPrefix("Tue 3 Mar  ±0 Read"))

        // Days that have not closed, and bad usage.
        for (arguments, status, needle) in [
            (["log", "2026-03-04"], Int32(1), "has not closed yet"),
            (["log", "2026-03-09"], 1, "has not closed yet"),
            (["log", "2026-3-2"], 64, "2026-3-2"),
            (["log", "--days", "0"], 64, "--days"),
            (["log", "--days", "367"], 64, "--days"),
        ] {
            let result = try await world.petctl(arguments)
            #expect(result.status == status && result.output.isEmpty, "\(arguments): \(result)")
            let lines = result.errors.split(separator: "\n")
            #expect(lines.count == 1 && lines[0].hasPrefix("petctl: ") && lines[0].contains(needle), "\(result)")
        }
    }

    @Test("before any day has closed, log says so")
    func nothingClosedYet() async throws {
        let world = try await World("ctl-log-new")
        defer { world.close() }
        _ = try await world.daemon(now: "2026-03-02T10:00:00+01:00")
        #expect(try await world.petctlOK(["log"]).hasPrefix("No day has closed yet"))
    }

    /// A record whose XP does not add up and whose closing pet the events do not reach: written
    /// into history by hand (schema 2, as the daemon writes it), read back through `GetHistory`.
    @Test("a record that does not add up is printed as a mismatch, never hidden")
    func aMismatchIsShown() async throws {
        let world = try await World("ctl-log-bad")
        defer { world.close() }
        let data = world.sandbox.path("data")
        let start = unix("2026-03-02T00:00:00+01:00")
        let report =
            #"{"completedAt":\#(start + 14 * 3600),"completedSeq":3,"dayKey":"2026-03-02","id":"20260302-1","order":1,"#
            + #""scheduled":\#(start + 14 * 3600),"time":"14:00","title":"Report","xp":2}"#
        let walk =
            #"{"completedSeq":0,"dayKey":"2026-03-02","id":"20260302-2","order":2,"scheduled":\#(start + 19 * 3600),"#
            + #""time":"19:00","title":"Walk","xp":0}"#
        // The events: +2, −2, no daily result (1 of 2) = ±0, Frog 11 → 11. The record claims +4 and Frog 15.
        let line =
            #"{"record":{"day":{"end":\#(start + 86_400),"key":"2026-03-02","start":\#(start)},"done":1,"#
            + #""petAtClose":{"stageIndex":2,"stageXP":15},"petAtOpen":{"stageIndex":2,"stageXP":11},"rate":0.5,"#
            + #""rest":false,"resultXP":0,"tasks":[\#(report),\#(walk)],"total":2,"xpChange":4},"schema":2}"#
        try HistoryTests.writeHistory([.init(key: "2026-03-02", line: line, dailyXP: 0, xpChange: 4)], to: data)
        _ = try await world.daemon(dataDirectory: data, now: "2026-03-03T10:00:00+01:00")

        let log = try await world.petctlOK(["log"], columns: 80)
        #expect(
            log == """
                Mon 2 Mar  +2 Report (on time, 14:00)  −2 Walk (missed)
                           no daily result (1 of 2 done)  → Frog 15/30 (was Frog 11/30)
                           ! mismatch: these events add up to ±0 XP, the record says +4 XP
                           ! mismatch: replayed from Frog 11/30 these events give Frog 11/30,
                           the record says Frog 15/30 (has the stage table changed?)

                """, "\n\(log)")
    }

    /// Monday: four tasks on time (8 XP), one done early (9), then one more on time (11): the pet
    /// evolves with 1 XP over the threshold dropped; 6 of 6 done, +3. Tuesday: two tasks missed:
    /// Minnow 3 − 2 = 1, 1 − 2 = −1, which de-evolves to Tadpole 10 − 1 − 1 = 8; 0 of 2 done, −3.
    @Test("log shows the evolution with the XP dropped, and the de-evolution with its arithmetic")
    func evolutionAndDeEvolution() async throws {
        let world = try await World("ctl-log-moments")
        defer { world.close() }
        let data = world.sandbox.path("data")
        var daemon = try await world.daemon(dataDirectory: data, now: "2026-03-02T10:00:00+01:00")
        var client = try world.client()
        let ids = try (1...6).map { n in try client.addTask("Task \(n)", n == 5 ? "15:00" : "10:00") }
        for id in ids { _ = try client.markDone(id) }
        #expect(await daemon.stop() == 0)
        daemon = try await world.daemon(dataDirectory: data, now: "2026-03-03T09:00:00+01:00")
        client = try world.client()
        _ = try client.addTask("Gym", "10:00")
        _ = try client.addTask("Read", "11:00")
        #expect(await daemon.stop() == 0)
        _ = try await world.daemon(dataDirectory: data, now: "2026-03-04T09:00:00+01:00")
        let log = try await world.petctlOK(["log", "--days", "2"], columns: 100)
        #expect(
            log == """
                Mon 2 Mar  +2 Task 1 (on time, 10:00)  +2 Task 2 (on time, 10:00)  +2 Task 3 (on time, 10:00)
                           +2 Task 4 (on time, 10:00)  +1 Task 5 (early, 10:00)  +2 Task 6 (on time, 10:00)
                           ↑ Minnow (evolved; 1 XP over the threshold dropped)  +3 daily result (6 of 6 done)
                           → Minnow 3/20 (was Tadpole 0/10)
                Tue 3 Mar  −2 Gym (missed)  −2 Read (missed)  ↓ Tadpole 8/10 (de-evolved: 10 − 1 − 1)
                           −3 daily result (0 of 2 done)  → Tadpole 5/10 (was Minnow 3/20)

                """, "\n\(log)")
    }
}
