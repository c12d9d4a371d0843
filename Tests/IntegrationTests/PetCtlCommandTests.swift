import DBusKit
import Foundation
import TestSupport
import Testing

/// Every everyday `petctl` subcommand against the real daemon: its output, its exit status
/// (petprogress(7) §7: 0, 1 rejected, 3 unreachable, 64 usage), one line on stderr for every failure, and — after
/// every failure — the tasks, templates and settings exactly as they were.
@Suite("petctl commands")
struct PetCtlCommandTests {
    /// Everything a failed command must leave alone.
    struct State: Equatable {
        let today, tomorrow: [[String: DBusValue]]
        let templates, settings: [DBusValue]
        let pet: [String: DBusValue]
    }

    static func state(_ c: RawClient) throws -> State {
        State(
            today: try c.tasks(""), tomorrow: try c.tasks("tomorrow"), templates: try c.call("ListTemplates"),
            settings: try c.call(
                "GetAll", [.string("io.petprogress.PetProgress1")], interface: "org.freedesktop.DBus.Properties"),
            pet: try c.pet())
    }

    /// Runs a failing invocation and checks its status, its one stderr line, and that nothing changed.
    static func expectFailure(
        _ world: World, _ arguments: [String], status: Int32, mentions needle: String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws {
        let client = try world.client()
        let before = try state(client)
        let result = try await world.petctl(arguments)
        #expect(result.status == status, "\(arguments): \(result)", sourceLocation: sourceLocation)
        #expect(result.output.isEmpty, "\(arguments): \(result)", sourceLocation: sourceLocation)
        let lines = result.errors.split(separator: "\n")
        #expect(
            lines.count == 1 && lines[0].hasPrefix("petctl: ") && lines[0].contains(needle),
            "\(arguments): \(result)", sourceLocation: sourceLocation)
        #expect(try state(client) == before, "\(arguments) changed something", sourceLocation: sourceLocation)
    }

    static func ok(_ world: World, _ arguments: [String]) async throws -> String {
        let result = try await world.petctl(arguments)
        #expect(result.status == 0 && result.errors.isEmpty, "\(arguments): \(result)")
        return result.output
    }

    @Test("add, templates, edit, rm: output, handles and the daemon's view")
    func editing() async throws {
        let world = try await World("ctl-edit")
        defer { world.close() }
        _ = try await world.daemon(now: "2026-03-02T08:10:00+01:00")
        let c = try world.client()
        #expect(
            try await Self.ok(world, ["add", "09:00", "Walk", "the", "dog"]) == "Added 1: 09:00 Walk the dog (today).\n"
        )
        #expect(
            try await Self.ok(world, ["add", "10:00", "Plants", "--tomorrow"]) == "Added +1: 10:00 Plants (tomorrow).\n"
        )
        #expect(
            try await Self.ok(world, ["add", "07:30", "Stretch", "--repeat", "mon,wed"])
                == "Added r3: 07:30 Stretch (today, repeating mon,wed). Today's copy is 2.\n"
                + "07:30 has already passed today: the task is due now.\n")
        #expect(try c.tasks().map { $0.string("title") } == ["Stretch", "Walk the dog"])
        #expect(try c.tasks("tomorrow").map { $0.string("id") } == ["20260303-2"])
        #expect(try await Self.ok(world, ["templates"]) == "r3  07:30  mon,wed  Stretch\n")

        #expect(
            try await Self.ok(world, ["edit", "1", "--time", "11:00", "--title", "Walk"]) == "Updated 1: 11:00 Walk.\n")
        #expect(
            try await Self.ok(world, ["edit", "20260303-2", "--title", "Water plants"])
                == "Updated +1: 10:00 Water plants.\n")
        #expect(
            try await Self.ok(world, ["edit", "r3", "--time", "07:45"])
                == "Updated r3: 07:45 Stretch, and today's copy 2 with it.\n")
        let walk = try #require(try c.tasks().first { $0.string("id") == "20260302-1" })
        #expect(walk.string("title") == "Walk" && walk.string("time") == "11:00")
        #expect(try c.tasks("tomorrow").first?.string("title") == "Water plants")

        #expect(
            try await Self.ok(world, ["rm", "+1"])
                == "Deleted +1: 10:00 Water plants.\nBring it back: petctl add 10:00 'Water plants' --tomorrow\n")
        #expect(
            try await Self.ok(world, ["rm", "t-3"])
                == "Deleted r3 (07:45 Stretch): no more copies from tomorrow on; today's copy 2 stays.\n"
                + "Bring it back: petctl add 07:45 Stretch --repeat mon,wed --tomorrow\n")
        #expect(try c.tasks("tomorrow").isEmpty)
        #expect(try await Self.ok(world, ["templates"]).hasPrefix("No recurring tasks."))
    }

    @Test("done, snooze, undo: with and without a handle")
    func doneSnoozeUndo() async throws {
        let world = try await World("ctl-done")
        defer { world.close() }
        _ = try await world.daemon(now: "2026-03-02T08:10:00+01:00")
        let c = try world.client()
        _ = try c.addTask("Standup", "08:00")
        _ = try c.addTask("Email", "09:00")
        _ = try c.addTask("Review", "17:00")
        #expect(try await Self.ok(world, ["done"]) == "Done: 1 Standup, +2 XP (on time).\n")
        #expect(try await Self.ok(world, ["snooze"]) == "Snoozed 2 Email to 09:15.\n")
        #expect(try await Self.ok(world, ["snooze", "2"]) == "Snoozed 2 Email to 09:30.\n")
        // Done before its window: early, not late.
        #expect(try await Self.ok(world, ["done", "20260302-3"]) == "Done: 3 Review, +1 XP (early).\n")
        #expect(try c.pet().int("stage_xp") == 3)
        #expect(try await Self.ok(world, ["undo"]) == "Undone: 3 Review is pending again.\n")
        #expect(try await Self.ok(world, ["undo", "1"]) == "Undone: 1 Standup is pending again.\n")
        #expect(try c.pet().int("stage_xp") == 0)
        #expect(try c.tasks().allSatisfy { $0.bool("done") == false })
    }

    /// Tadpole needs 10 XP: the fifth on-time completion evolves it, and undoing it reverses that.
    @Test("a completion that evolves the pet says so in one line, and so does the undo that reverses it")
    func evolutionIsSaid() async throws {
        let world = try await World("ctl-evolve")
        defer { world.close() }
        _ = try await world.daemon(now: "2026-03-02T14:10:00+01:00")
        let c = try world.client()
        for n in 1...5 { _ = try c.addTask("Task \(n)", "14:00") }
        for _ in 1...4 { _ = try await Self.ok(world, ["done"]) }
        #expect(
            try await Self.ok(world, ["done"])
                == "Done: 5 Task 5, +2 XP (on time).\nThe pet evolved: Tadpole → Minnow. The panel shows it at 15:00.\n"
        )
        #expect(
            try await Self.ok(world, ["undo"])
                == "Undone: 5 Task 5 is pending again.\n"
                + "The pet de-evolved: Minnow → Tadpole. The panel shows it at 15:00.\n")
        #expect(try await Self.ok(world, ["undo"]) == "Undone: 4 Task 4 is pending again.\n")
    }

    /// A daemon that is stopped (SIGSTOP) takes the call but cannot answer: petctl gives up after
    /// its (test-short) timeout, says the request may or may not have taken effect, and exits 4;
    /// once the daemon runs again, the request turns out to have been applied.
    @Test("no answer in time: exit 4, the request may have taken effect, check with petctl today")
    func noAnswerIsNotUnreachable() async throws {
        let world = try await World("ctl-no-answer")
        defer { world.close() }
        let daemon = try await world.daemon(now: "2026-03-02T08:10:00+01:00")
        let pid = daemon.process.pid
        kill(pid, SIGSTOP)
        let result = try await world.petctl(
            ["add", "09:00", "Standup"], environment: ["PETCTL_REPLY_TIMEOUT_MS": "500"])
        kill(pid, SIGCONT)
        #expect(result.status == 4 && result.output.isEmpty, "\(result)")
        let lines = result.errors.split(separator: "\n")
        #expect(lines.count == 1, "\(result)")
        #expect(
            result.errors.contains("did not answer") && result.errors.contains("may or may not have taken effect")
                && result.errors.contains("petctl today"), "\(result)")
        #expect(!result.errors.contains("cannot reach"), "\(result)")
        let c = try world.client()
        #expect(await poll { (try? c.tasks().count) == 1 }, "the request was applied after all")
    }

    @Test("settings, status, timeline")
    func settingsStatusTimeline() async throws {
        let world = try await World("ctl-settings")
        defer { world.close() }
        _ = try await world.daemon(now: "2026-03-02T08:10:00+01:00")
        let c = try world.client()
        #expect(
            try await Self.ok(world, ["settings"]) == """
                reset-time  00:00  when a day ends
                grace       60     minutes either side of a task's time that count as on time (0–720)
                snooze      15     minutes a snooze adds (1–240)
                rollover    off    copy unfinished tasks into the next day

                """)
        #expect(try await Self.ok(world, ["settings", "grace", "30"]) == "grace 30\n")
        #expect(
            try await Self.ok(world, ["settings", "reset-time", "4am"])
                == "reset-time 04:00\nToday still ends at 00:00; the days after end at 04:00.\n")
        #expect(try await Self.ok(world, ["settings", "reset-time", "0400"]) == "reset-time 04:00\n")
        let named = try await world.petctl(["settings", "grace", "721"])
        #expect(named.status == 64 && named.errors.contains("grace must be between 0 and 720 minutes, not 721"), "\(named)")
        #expect(!named.errors.contains("GraceMinutes"))
        let fromNow = try await world.petctl(["settings", "reset-time", "+20m"])
        #expect(fromNow.status == 64, "\(fromNow)")
        #expect(try await Self.ok(world, ["settings", "rollover", "on"]) == "rollover on\n")
        #expect(try await Self.ok(world, ["settings", "snooze"]) == "snooze 15\n")
        #expect(try c.property("GraceMinutes") == .uint32(30))
        #expect(try c.property("Rollover") == .bool(true))
        #expect(try c.property("ResetTime") == .string("04:00"))

        let status = try await Self.ok(world, ["status"])
        #expect(status.hasPrefix("petprogressd 0.1.0\n"))
        #expect(status.contains("open day     2026-03-02\n") && status.contains("last closed  none yet\n"))
        #expect(status.contains("problems     none\n"))
        // The daemon runs under --now: its clock is shown as simulated.
        #expect(status.contains("clock        simulated: 2026-03-02T"), "\(status)")

        _ = try c.addTask("Email", "10:00")
        let timeline = try await Self.ok(world, ["timeline"]).split(separator: "\n")
        #expect(timeline.count == 24)
        #expect(timeline.first == "09:00  🫧 Tadpole      0/10        0/1  10:00 Email")
        // Rollover is on: the next day shows the copy Email would give it (petprogress(7) §3.2).
        #expect(timeline.last == "08:00  🫧 Tadpole      0/10        0/1  10:00 Email")
    }

    @Test("every failure: one line on stderr, the documented status, nothing changed")
    func failures() async throws {
        let world = try await World("ctl-fail")
        defer { world.close() }
        _ = try await world.daemon(now: "2026-03-02T08:10:00+01:00")
        let c = try world.client()
        let done = try c.addTask("Standup", "08:00")
        _ = try c.markDone(done)
        _ = try c.addTask("Email", "09:00")

        // What petctl judges itself: 64.
        try await Self.expectFailure(world, ["add", "25:00", "x"], status: 64, mentions: "e.g. 14:30")
        try await Self.expectFailure(world, ["add", "10:00", "  "], status: 64, mentions: "title is empty")
        try await Self.expectFailure(
            world, ["add", "10:00", String(repeating: "x", count: 201)], status: 64, mentions: "limit is 200")
        try await Self.expectFailure(world, ["add", "10:00", "x", "--repeat", "mon,mon"], status: 64, mentions: "mon")
        try await Self.expectFailure(world, ["add", "10:00"], status: 64, mentions: "title")
        try await Self.expectFailure(world, ["edit", "2"], status: 64, mentions: "--title")
        try await Self.expectFailure(world, ["edit", "2", "--time", "9:60"], status: 64, mentions: "e.g. 14:30")
        try await Self.expectFailure(world, ["done", "abc"], status: 64, mentions: "abc")
        try await Self.expectFailure(world, ["rm", "t-"], status: 64, mentions: "t-")
        try await Self.expectFailure(world, ["snooze", "2026-1"], status: 64, mentions: "2026-1")
        try await Self.expectFailure(world, ["settings", "colour", "3"], status: 64, mentions: "colour")
        try await Self.expectFailure(world, ["settings", "grace", "x"], status: 64, mentions: "whole number")
        try await Self.expectFailure(world, ["settings", "rollover", "maybe"], status: 64, mentions: "on or off")
        // The bounds are petctl's to check, naming the setting as typed.
        try await Self.expectFailure(world, ["settings", "grace", "9999"], status: 64, mentions: "between 0 and 720")
        try await Self.expectFailure(world, ["frobnicate"], status: 64, mentions: "frobnicate")
        try await Self.expectFailure(world, ["open", "https://x"], status: 64, mentions: "petprogress://today")

        // What the daemon rejects, or what cannot be found among its tasks: 1.
        try await Self.expectFailure(world, ["done", "1"], status: 1, mentions: "already")
        try await Self.expectFailure(world, ["done", "99"], status: 1, mentions: "no task 99")
        try await Self.expectFailure(world, ["undo", "2"], status: 1, mentions: "not done")
        try await Self.expectFailure(world, ["snooze", "1"], status: 1, mentions: "nothing to snooze")
        try await Self.expectFailure(world, ["edit", "1", "--time", "10:00"], status: 1, mentions: "done")
        try await Self.expectFailure(world, ["rm", "1"], status: 1, mentions: "done")
        try await Self.expectFailure(world, ["rm", "20260301-1"], status: 1, mentions: "no task")
        try await Self.expectFailure(world, ["rm", "t-9"], status: 1, mentions: "no task or template")
        _ = try c.markDone(try #require(try c.tasks().first { $0.bool("done") == false }?.string("id")))
        try await Self.expectFailure(world, ["done"], status: 1, mentions: "othing")
        try await Self.expectFailure(world, ["snooze"], status: 1, mentions: "othing")
        try await Self.expectFailure(world, ["undo", "20260302-99"], status: 1, mentions: "20260302-99")
    }

    @Test("no bus, or no daemon and no activation: exit 3 with one sentence saying what to check")
    func unreachable() async throws {
        let world = try await World("ctl-unreachable")
        defer { world.close() }
        let noDaemon = try await world.petctl(["today"])
        #expect(noDaemon.status == 3 && noDaemon.output.isEmpty, "\(noDaemon)")
        #expect(noDaemon.errors.split(separator: "\n").count == 1 && noDaemon.errors.contains("systemctl --user"))
        let noBus = try await world.petctl(
            ["done"], environment: ["DBUS_SESSION_BUS_ADDRESS": "unix:path=\(world.sandbox.path("nobus"))"])
        #expect(noBus.status == 3 && noBus.errors.split(separator: "\n").count == 1, "\(noBus)")
        let nothing = try await world.petctl(
            ["status"], environment: ["DBUS_SESSION_BUS_ADDRESS": "", "XDG_RUNTIME_DIR": ""])
        #expect(nothing.status == 3 && nothing.errors.contains("session bus"), "\(nothing)")
    }

    @Test("the first petctl call starts an installed daemon through D-Bus activation")
    func activation() async throws {
        let world = try await World.activating("ctl-activate", now: "2026-03-02T08:30:00+01:00")
        defer { world.close() }
        let data = world.sandbox.path("data")
        let result = try await world.petctl(["add", "09:00", "Activated"])
        #expect(result.status == 0 && result.output == "Added 1: 09:00 Activated (today).\n", "\(result)")
        let client = try world.client()
        let pid = try client.daemonPID()
        #expect(FileManager.default.fileExists(atPath: data + "/state.json"))
        kill(pid, SIGTERM)
        #expect(await ActivationTests.waitGone(pid))
    }
}
