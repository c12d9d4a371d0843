import Foundation
import TestSupport
import Testing

/// `petctl today` as a person sees it, against the real daemon: the expected screens below are
/// written out by hand, at 80 and 40 columns, plain, and in colour.
@Suite("Today screen")
struct TodayScreenTests {
    /// A Monday at 13:10 in Berlin: one task done late, one on time, one snoozed, one due (and
    /// next: 12:30, still within the hour's grace), and a daily template's instance. The pet gained 3 XP since the 13:00 tick.
    static func mixedDay() async throws -> World {
        let world = try await World("today-mixed")
        _ = try await world.daemon(now: "2026-03-02T13:10:00+01:00")
        let c = try world.client()
        let standup = try c.addTask("Standup", "09:00")
        let lunch = try c.addTask("Lunch walk", "12:00")
        let review = try c.addTask("Review", "13:00")
        _ = try c.addTask("Email", "12:30")
        _ = try c.addTaskFor("Stretch", "18:00", day: "today", repeat: "daily")
        _ = try c.markDone(standup)
        _ = try c.markDone(review)
        try c.call("Snooze", [.string(lunch)])
        return world
    }

    static func lines(_ result: ToolResult) -> [String] {
        var lines = result.output.components(separatedBy: "\n")
        if lines.last == "" { lines.removeLast() }
        return lines
    }

    @Test("a mixed day at 80 columns")
    func mixedAt80() async throws {
        let world = try await Self.mixedDay()
        defer { world.close() }
        let result = try await world.petctl(["today"], columns: 80)
        #expect(result.status == 0 && result.errors.isEmpty, "\(result)")
        #expect(
            Self.lines(result) == [
                "🫧 Tadpole · stage 1 of 20",
                "█████████░░░░░░░░░░░░░░░░░░░░░  3/10 XP",
                "The panel shows 🫧 Tadpole 0/10 XP until 14:00; it changes on the hour.",
                "Monday 2 March · 2 of 5 done",
                "",
                "1  09:00 ✓ Standup                                                    +1 XP late",
                "4  12:30 → Email                                                      next · due",
                "3  13:00 ✓ Review                                                          +2 XP",
                "2  12:00   Lunch walk                                           snoozed to 13:25",
                "5  18:00   Stretch                                                         daily",
            ])
    }

    @Test("a mixed day at 40 columns: the panel note wraps")
    func mixedAt40() async throws {
        let world = try await Self.mixedDay()
        defer { world.close() }
        let result = try await world.petctl(["today"], columns: 40)
        #expect(
            Self.lines(result) == [
                "🫧 Tadpole · stage 1 of 20",
                "█████████░░░░░░░░░░░░░░░░░░░░░  3/10 XP",
                "The panel shows 🫧 Tadpole 0/10 XP until",
                "14:00; it changes on the hour.",
                "Monday 2 March · 2 of 5 done",
                "",
                "1  09:00 ✓ Standup            +1 XP late",
                "4  12:30 → Email              next · due",
                "3  13:00 ✓ Review                  +2 XP",
                "2  12:00   Lunch walk   snoozed to 13:25",
                "5  18:00   Stretch                 daily",
            ])
    }

    @Test("--plain: one sentence per line, in the accessible_text wording")
    func plain() async throws {
        let world = try await Self.mixedDay()
        defer { world.close() }
        let result = try await world.petctl(["today", "--plain"], columns: 40)
        #expect(
            Self.lines(result) == [
                "Tadpole, stage 1 of 20, 3 of 10 XP.",
                "Until 14:00 the panel shows Tadpole, stage 1 of 20, 0 of 10 XP.",
                "2 of 5 tasks done.",
                "Next: 12:30 Email, due.",
                "Task 1 at 09:00, Standup: done late, 1 XP.",
                "Task 4 at 12:30, Email: next, due.",
                "Task 3 at 13:00, Review: done on time, 2 XP.",
                "Task 2 at 12:00, Lunch walk: snoozed to 13:25.",
                "Task 5 at 18:00, Stretch: repeats daily.",
            ])
        // The entry's own sentence starts the same way.
        let entry = try world.client().entry()
        #expect(
            entry.string("accessible_text")?.hasPrefix("Tadpole, stage 1 of 20, 0 of 10 XP. 2 of 5 tasks done.") == true
        )
    }

    @Test("colour: ANSI styles with --color always, none with NO_COLOR or TERM=dumb")
    func colour() async throws {
        let world = try await Self.mixedDay()
        defer { world.close() }
        let e = "\u{1B}["
        let colored = Self.lines(try await world.petctl(["today", "--color", "always"], columns: 80))
        #expect(
            colored == [
                "🫧 \(e)1mTadpole\(e)0m · stage 1 of 20",
                "\(e)32m█████████░░░░░░░░░░░░░░░░░░░░░\(e)0m  3/10 XP",
                "\(e)2mThe panel shows 🫧 Tadpole 0/10 XP until 14:00; it changes on the hour.\(e)0m",
                "Monday 2 March · 2 of 5 done",
                "",
                "1  09:00 \(e)32m✓\(e)0m \(e)2mStandup\(e)0m                                                    \(e)32m+1 XP late\(e)0m",
                "4  12:30 \(e)36m→\(e)0m \(e)1mEmail\(e)0m                                                      \(e)36mnext\(e)0m · \(e)33mdue\(e)0m",
                "3  13:00 \(e)32m✓\(e)0m \(e)2mReview\(e)0m                                                          \(e)32m+2 XP\(e)0m",
                "2  12:00   Lunch walk                                           \(e)33msnoozed to 13:25\(e)0m",
                "5  18:00   Stretch                                                         \(e)2mdaily\(e)0m",
            ])
        let plainText = try await world.petctl(["today"], columns: 80).output
        for environment in [["NO_COLOR": "1"], ["TERM": "dumb"]] {
            let result = try await world.petctl(["today", "--color", "always"], columns: 80, environment: environment)
            #expect(result.output == plainText, "\(environment)")
        }
        #expect(!plainText.contains("\u{1B}"), "a pipe gets no colour by default")
    }

    @Test("colour on a terminal by default (a pty from script(1)), never with NO_COLOR")
    func colourOnATerminal() async throws {
        let world = try await Self.mixedDay()
        defer { world.close() }
        let petctl = try productBinary("petctl", override: "PETCTL")
        let tty = try await world.sandbox.run(
            "script", ["-qec", "\(petctl) today", "/dev/null"],
            environment: world.petctlEnvironment.merging(["TERM": "xterm"]) { $1 })
        #expect(tty.status == 0 && tty.output.contains("\u{1B}[32m✓"), "\(tty)")
        let noColor = try await world.sandbox.run(
            "script", ["-qec", "\(petctl) today", "/dev/null"],
            environment: world.petctlEnvironment.merging(["TERM": "xterm", "NO_COLOR": "1"]) { $1 })
        #expect(noColor.status == 0 && noColor.output.contains("✓") && !noColor.output.contains("\u{1B}["))
    }

    @Test("hostile titles at 40 columns: cut on grapheme boundaries by display width, right-to-left isolated")
    func hostileTitlesAt40() async throws {
        let world = try await World("today-hostile")
        defer { world.close() }
        _ = try await world.daemon(now: "2026-03-02T08:10:00+01:00")
        let c = try world.client()
        _ = try c.addTask("Tom & Jerry <b>bold</b>", "09:00")
        _ = try c.addTask("Cafe\u{301} re\u{301}sume\u{301} for the interview panel", "10:00")
        _ = try c.addTask("שלום עולם", "11:00")
        _ = try c.addTask("👩‍💻👩‍💻👩‍💻 pair programming with the whole team", "12:00")
        _ = try c.addTask("x\u{202E}gnp.exe", "13:00")
        let result = try await world.petctl(["today"], columns: 40)
        #expect(result.status == 0, "\(result)")
        #expect(
            Self.lines(result) == [
                "🫧 Tadpole · stage 1 of 20",
                "░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░  0/10 XP",
                "Monday 2 March · 0 of 5 done",
                "",
                "1  09:00 → Tom & Jerry <b>bold</b>  next",
                "2  10:00   Cafe\u{301} re\u{301}sume\u{301} for the intervie…",
                "3  11:00   \u{2068}שלום עולם\u{2069}",
                "4  12:00   👩‍💻👩‍💻👩‍💻 pair programming with…",
                // The override is neutralised, not only isolated: it can reverse nothing.
                "5  13:00   x\u{FFFD}gnp.exe",
            ])
    }

    @Test("a rest day says so under the pet, on the screen and in --plain")
    func restDay() async throws {
        let world = try await World("today-rest")
        defer { world.close() }
        _ = try await world.daemon(now: "2026-03-02T08:10:00+01:00")
        let c = try world.client()
        _ = try c.addTask("Read", "20:00")
        try c.call("SetRest", [.string("today"), .string("today"), .bool(true)])
        #expect(
            Self.lines(try await world.petctl(["today"], columns: 40)) == [
                "🫧 Tadpole · stage 1 of 20",
                "░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░  0/10 XP",
                "Rest day: nothing is charged today; done",
                "tasks still count.",
                "Monday 2 March · 0 of 1 done",
                "",
                "1  20:00 → Read                     next",
            ])
        #expect(
            Self.lines(try await world.petctl(["today", "--plain"])) == [
                "Tadpole, stage 1 of 20, 0 of 10 XP.",
                "Rest day.",
                "0 of 1 task done.",
                "Next: 20:00 Read.",
                "Task 1 at 20:00, Read: next.",
            ])
    }

    @Test("an empty day at 80 and 40 columns")
    func emptyDay() async throws {
        let world = try await World("today-empty")
        defer { world.close() }
        _ = try await world.daemon(now: "2026-03-02T08:10:00+01:00")
        let expected = [
            "🫧 Tadpole · stage 1 of 20",
            "░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░  0/10 XP",
            "Monday 2 March · no tasks yet",
            "",
            "Add one: petctl add 14:30 \"Write report\"",
        ]
        #expect(Self.lines(try await world.petctl(["today"], columns: 80)) == expected)
        #expect(Self.lines(try await world.petctl(["today"], columns: 40)) == expected)
        #expect(
            Self.lines(try await world.petctl(["today", "--plain"]))
                == ["Tadpole, stage 1 of 20, 0 of 10 XP.", "No tasks planned."])
    }

    @Test(
        """
        the deep link: petctl open petprogress://today prints petctl today; any other link is a usage error; \
        --hold waits only on a terminal (scripts/check-install.sh holds one open until Enter)
        """)
    func deepLink() async throws {
        let world = try await Self.mixedDay()
        defer { world.close() }
        let today = try await world.petctl(["today"], columns: 80)
        for arguments in [["open", "petprogress://today"], ["open"], [], ["open", "--hold", "petprogress://today/"]] {
            let opened = try await world.petctl(arguments, columns: 80)
            #expect(opened.status == 0 && opened.output == today.output, "\(arguments)")
        }
        for arguments in [["open", "https://x"], ["open", "--hold", "https://x"]] {
            let other = try await world.petctl(arguments)
            #expect(other.status == 64 && other.output.isEmpty, "\(arguments): \(other)")
            let lines = other.errors.split(separator: "\n")
            #expect(lines.count == 1 && lines[0].contains("petprogress://today"), "\(arguments): \(other)")
        }
    }

    /// Monday: four tasks done on time (Tadpole 8/10), the screen looked at. Tuesday's start closes
    /// Monday: 4 of 4 done, +3, so the pet evolved at the closeout. The next screen says so, once.
    @Test("a closeout that changed the form since the user last looked is said once")
    func formChangeSaidOnce() async throws {
        let world = try await World("today-form-change")
        defer { world.close() }
        let data = world.sandbox.path("data")
        let state = ["XDG_STATE_HOME": world.sandbox.path("state")]
        let monday = try await world.daemon(dataDirectory: data, now: "2026-03-02T10:00:00+01:00")
        let client = try world.client()
        for n in 1...4 { _ = try client.markDone(try client.addTask("Task \(n)", "10:00")) }
        let first = try await world.petctl(["today"], columns: 80, environment: state)
        #expect(first.status == 0 && !first.output.contains("Since you last looked"), "\(first)")
        #expect(await monday.stop() == 0)
        _ = try await world.daemon(dataDirectory: data, now: "2026-03-03T09:00:00+01:00")
        let said = try await world.petctl(["today"], columns: 80, environment: state)
        #expect(
            Self.lines(said).prefix(3) == [
                "🐟 Minnow · stage 2 of 20",
                "░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░  0/20 XP",
                "Since you last looked, the pet evolved: Tadpole → Minnow (closeout of Mon 2",
            ], "\(said)")
        #expect(Self.lines(said).dropFirst(3).first == "Mar); petctl log shows why.", "\(said)")
        let again = try await world.petctl(["today"], columns: 80, environment: state)
        #expect(again.status == 0 && !again.output.contains("Since you last looked"), "once: \(again)")
    }

    /// Monday's closeout evolves the pet (Tadpole → Minnow), Tuesday's de-evolves it (a task
    /// missed, Minnow 0 − 5 < 0): the same form as before, but two changes, each told.
    @Test("an evolution and a de-evolution since the user last looked are both said")
    func formChangedTwice() async throws {
        let world = try await World("today-form-twice")
        defer { world.close() }
        let data = world.sandbox.path("data")
        let state = ["XDG_STATE_HOME": world.sandbox.path("state")]
        let monday = try await world.daemon(dataDirectory: data, now: "2026-03-02T10:00:00+01:00")
        let client = try world.client()
        for n in 1...4 { _ = try client.markDone(try client.addTask("Task \(n)", "10:00")) }
        _ = try await world.petctl(["today"], columns: 80, environment: state)
        #expect(await monday.stop() == 0)
        let tuesday = try await world.daemon(dataDirectory: data, now: "2026-03-03T09:00:00+01:00")
        _ = try world.client().addTask("Forgotten", "10:00")
        #expect(await tuesday.stop() == 0)
        _ = try await world.daemon(dataDirectory: data, now: "2026-03-04T09:00:00+01:00")
        let said = try await world.petctl(["today"], columns: 200, environment: state)
        #expect(
            said.output.contains(
                "Since you last looked, the pet changed form: Tadpole → Minnow (Mon 2 Mar), Minnow → Tadpole (Tue 3 Mar); petctl log shows why."
            ), "\(said)")
    }
}
