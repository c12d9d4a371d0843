import DBusKit
import Foundation
import TestSupport
import Testing

/// petctl's forgiving and helpful command line (petprogress(7) §7), its small defects, the first
/// day of use, and that no string reaches the terminal raw — against the real daemon.
@Suite("petctl: forgiving input, first run, terminal-safe output")
struct ForgivingInputTests {
    static func ok(_ world: World, _ arguments: [String]) async throws -> String {
        let result = try await world.petctl(arguments)
        #expect(result.status == 0 && result.errors.isEmpty, "\(arguments): \(result)")
        return result.output
    }

    static func write(_ text: String, to path: String) throws {
        try FileManager.default.createDirectory(
            atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try text.write(toFile: path, atomically: true, encoding: .utf8)
    }

    @Test("times as people type them; +20m on the daemon's clock, refused past the day's end")
    func forgivingTimes() async throws {
        let world = try await World("ctl-times")
        defer { world.close() }
        // The daemon's clock, not the host's: 08:10:01 plus 20 minutes rounds up to 08:31.
        _ = try await world.daemon(now: "2026-03-02T08:10:01+01:00")
        let c = try world.client()
        #expect(try await Self.ok(world, ["add", "7pm", "Cook"]) == "Added 1: 19:00 Cook (today).\n")
        #expect(try await Self.ok(world, ["add", "0705", "Early"]) == "Added 2: 07:05 Early (today).\n07:05 has already passed today: the task is due now.\n")
        #expect(try await Self.ok(world, ["add", "19h", "Read"]) == "Added 3: 19:00 Read (today).\n")
        #expect(try await Self.ok(world, ["add", "+20m", "Call", "back"]) == "Added 4: 08:31 Call back (today).\n")
        #expect(try await Self.ok(world, ["edit", "4", "--time", "+1h30m"]) == "Updated 4: 09:41 Call back.\n")
        #expect(try c.tasks().map { $0.string("time") ?? "" } == ["07:05", "09:41", "19:00", "19:00"])

        let ambiguous = try await world.petctl(["add", "7", "Walk"])
        #expect(ambiguous.status == 64 && ambiguous.errors.contains("7:00, 7am or 7pm"), "\(ambiguous)")
        let tomorrow = try await world.petctl(["add", "+20m", "Walk", "--tomorrow"])
        #expect(tomorrow.status == 64 && tomorrow.errors.contains("counts from now"), "\(tomorrow)")
        let empty = try await world.petctl(["add", "07:00", "Walk", "--repeat", ""])
        #expect(empty.status == 64 && empty.errors.contains("--repeat needs"), "\(empty)")
        let late = try await world.petctl(["add", "+16h", "Walk"])
        #expect(late.status == 1 && late.errors.contains("past today's end at 00:00"), "\(late)")
        #expect(try c.tasks().count == 4)
    }

    @Test("+20m is a wall time in the daemon's zone whatever petctl's TZ; across a DST change too")
    func laterInTheDaemonsZone() async throws {
        // A traveller: the daemon in Pacific/Chatham (+13:45), the shell in UTC.
        let world = try await World("ctl-later-zone")
        defer { world.close() }
        _ = try await world.daemon(now: "2026-03-02T08:10:01+13:45", zone: "Pacific/Chatham")
        let utc = ["TZ": "UTC"]
        let added = try await world.petctl(["add", "+20m", "Call", "back"], environment: utc)
        #expect(added.status == 0 && added.output == "Added 1: 08:31 Call back (today).\n", "\(added)")
        let edited = try await world.petctl(["edit", "1", "--time", "+1h"], environment: utc)
        #expect(edited.status == 0 && edited.output == "Updated 1: 09:11 Call back.\n", "\(edited)")
        let late = try await world.petctl(["add", "+16h", "Walk"], environment: utc)
        #expect(late.status == 1 && late.errors.contains("past today's end at 00:00"), "\(late)")
        // Tomorrow's task cannot be moved to "from now", by number or by id.
        _ = try await Self.ok(world, ["add", "--tomorrow", "9:00", "Walk"])
        let plus = try await world.petctl(["edit", "+1", "--time", "+20m"], environment: utc)
        #expect(plus.status == 64 && plus.errors.contains("counts from now"), "\(plus)")
        let c = try world.client()
        let id = try #require(try c.tasks("tomorrow").first?.string("id"))
        let byID = try await world.petctl(["edit", id, "--time", "+20m"], environment: utc)
        #expect(byID.status == 1 && byID.errors.contains("counts from now"), "\(byID)")
        #expect(try c.tasks("tomorrow").map { $0.string("time") ?? "" } == ["09:00"])
    }

    @Test("+20m across the daemon's DST change lands on the wall time after it")
    func laterAcrossDST() async throws {
        let world = try await World("ctl-later-dst")
        defer { world.close() }
        // Europe/Berlin springs from 02:00 to 03:00 on 2026-03-29: 01:49:30 + 20 minutes, rounded up, is 03:10.
        _ = try await world.daemon(now: "2026-03-29T01:49:30+01:00", zone: "Europe/Berlin")
        let added = try await world.petctl(["add", "+20m", "Late", "call"], environment: ["TZ": "UTC"])
        #expect(added.status == 0 && added.output == "Added 1: 03:10 Late call (today).\n", "\(added)")
        // 02:30 does not exist that night: the task says where it really is.
        let gap = try await world.petctl(["add", "02:30", "In", "the", "gap"], environment: ["TZ": "UTC"])
        #expect(gap.status == 0 && gap.output.contains("02:30 does not exist today (the clocks change then): the task is at 03:"), "\(gap)")
    }

    @Test("unknown commands, help for one, errors pointing at petctl help <command>")
    func helpfulErrors() async throws {
        let world = try await World("ctl-help")
        defer { world.close() }
        let typo = try await world.petctl(["todya"])
        #expect(
            typo.status == 64
                && typo.errors == "petctl: there is no command 'todya'; did you mean 'today'? petctl help lists them\n",
            "\(typo)")
        let topic = try await world.petctl(["help", "frobnicate"])
        #expect(
            topic.status == 64 && topic.output.isEmpty && topic.errors.contains("no command 'frobnicate'"), "\(topic)")
        let help = try await world.petctl(["help", "add"])
        #expect(help.status == 0 && help.output.contains("+1h30m"), "\(help)")
        let usage = try await world.petctl(["add", "25:00", "X"])
        #expect(usage.status == 64 && usage.errors.hasSuffix("(see petctl help add)\n"), "\(usage)")
    }

    @Test("rm says what it deleted and how to bring it back; edit echoes; no D-Bus member in a sentence")
    func confirmations() async throws {
        let world = try await World("ctl-echo")
        defer { world.close() }
        _ = try await world.daemon(now: "2026-03-02T08:10:00+01:00")
        let c = try world.client()
        _ = try await Self.ok(world, ["add", "14:30", "Write", "Bob's report"])
        let removed = try await Self.ok(world, ["rm", "1"])
        #expect(
            removed
                == "Deleted 1: 14:30 Write Bob's report.\nBring it back: petctl add 14:30 'Write Bob'\\''s report'\n")
        let line = try #require(removed.split(separator: "\n").last?.dropFirst("Bring it back: ".count))
        let again = try await world.sandbox.run(
            "/bin/sh", ["-c", "exec \"$PETCTL_BIN\" " + line.dropFirst("petctl ".count)],
            environment: world.petctlEnvironment.merging(["PETCTL_BIN": try productBinary("petctl", override: "PETCTL")]
            ) { $1 })
        #expect(again.status == 0, "\(again)")
        #expect(try c.tasks().map { $0.string("title") ?? "" } == ["Write Bob's report"])
        _ = try await Self.ok(world, ["add", "07:00", "Stretch", "--repeat", "weekdays"])
        let template = try await Self.ok(world, ["rm", "t-3"])
        // Today's copy stays, so the template comes back from tomorrow on.
        #expect(
            template.hasSuffix(
                template.contains("today's copy")
                    ? "Bring it back: petctl add 07:00 Stretch --repeat weekdays --tomorrow\n"
                    : "Bring it back: petctl add 07:00 Stretch --repeat weekdays\n"), "\(template)")
        let missing = try await world.petctl(["edit", "20260302-99", "--title", "X"])
        #expect(missing.status == 1 && !missing.errors.contains("ListTasks"), "\(missing)")
    }

    @Test("rest --clear on an ordinary day says so; a range across a year names the years")
    func restSentences() async throws {
        let world = try await World("ctl-rest-words")
        defer { world.close() }
        _ = try await world.daemon(now: "2026-12-28T08:10:00+01:00")
        #expect(
            try await Self.ok(world, ["rest", "--clear", "tomorrow"])
                == "Nothing to clear: Tuesday 29 December is not a rest day.\n")
        #expect(
            try await Self.ok(world, ["rest", "2026-12-30", "2027-01-02"])
                == "Rest days: Wednesday 30 December 2026 to Saturday 2 January 2027 (4 days).\n")
        #expect(
            try await Self.ok(world, ["rest", "--clear", "2026-12-31"])
                == "No longer a rest day: Thursday 31 December.\n")
    }

    @Test("history for a new user starts at the first day of use")
    func historyFirstRun() async throws {
        let world = try await World("ctl-history-new")
        defer { world.close() }
        _ = try await world.daemon(now: "2026-03-02T08:10:00+01:00")
        let text = try await Self.ok(world, ["history"])
        #expect(!text.contains("without a record") && text.hasPrefix("Today, 2 Mar"), "\(text)")
        let plain = try await Self.ok(world, ["history", "--plain"])
        #expect(plain.split(separator: "\n").count == 1, "\(plain)")
    }

    @Test("escapes from a link, a title or a stage file never reach the terminal; bidi is neutralised")
    func terminalSafe() async throws {
        let world = try await World("ctl-hostile-text")
        defer { world.close() }
        let osc52 = "\u{1B}]52;c;cHduZWQ=\u{07}"
        try Self.write(
            """
            {"stages":[{"i":0,"name":"Egg\\u001b]52;c;cHduZWQ=\\u0007","threshold":4,"asset":"pet_egg.png"},
                       {"i":1,"name":"Hen","threshold":0,"asset":"pet_hen.png"}]}
            """, to: world.sandbox.path("home/.config/petprogress/stages.json"))
        _ = try await world.daemon(now: "2026-03-02T08:10:00+01:00")
        let c = try world.client()
        _ = try c.addTask("\u{2069}\u{202E}evil txt.exe", "09:00")
        _ = try c.addTask("שלום", "07:00")
        for arguments in [["today"], ["today", "--plain"], ["status"], ["open", "petprogress://x\(osc52)"]] {
            let result = try await world.petctl(arguments)
            let all = result.output + result.errors
            #expect(!all.contains("\u{1B}") && !all.contains("\u{07}"), "\(arguments): \(result)")
            #expect(!all.unicodeScalars.contains("\u{202E}"), "\(arguments): \(result)")
        }
        // A quoted refusal neither: what was typed is quoted without its bidi controls.
        for arguments in [
            ["add", "\u{202E}12:00", "x"], ["add", "12:00", "x", "--repeat", "\u{2066}mon"], ["rm", "\u{202B}t-1"],
            ["edit", "1", "--title", "\u{2067}\u{0007}"],
        ] {
            let refused = try await world.petctl(arguments)
            #expect(refused.status == 64, "\(arguments): \(refused)")
            let controls = refused.errors.unicodeScalars.filter {
                (0x202A...0x202E).contains($0.value) || (0x2066...0x2069).contains($0.value)
            }
            #expect(controls.isEmpty, "\(arguments): \(refused)")
        }
        let plain = try await Self.ok(world, ["today", "--plain"])
        #expect(plain.contains("\u{2068}שלום\u{2069}"), "\(plain)")
        let status = try await Self.ok(world, ["status"])
        #expect(status.contains("stages.json") && status.contains("control characters"), "\(status)")
        _ = try c.markDone(try c.addTask("Done", "08:00"))
        let polybar = try await Self.ok(world, ["widget", "--format", "polybar"])
        #expect(polybar.contains("\u{2068}"), "\(polybar)")
    }
}
