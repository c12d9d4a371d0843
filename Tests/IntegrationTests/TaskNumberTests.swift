import DBusKit
import Foundation
import TestSupport
import Testing

/// Per-day task numbers (petprogress(7) §3, §6.2 `number`, §7): on the bus with busctl and gdbus,
/// and as petctl's names for tasks — today's `N`, tomorrow's `+N`, templates' `rN` (the older `t-N` still taken) — against the
/// real daemon.
@Suite("task numbers")
struct TaskNumberTests {
    static let monday = "2026-03-02T08:10:00+01:00"

    static func ok(_ world: World, _ arguments: [String], columns: Int? = nil) async throws -> String {
        let result = try await world.petctl(arguments, columns: columns)
        #expect(result.status == 0 && result.errors.isEmpty, "\(arguments): \(result)")
        return result.output
    }

    /// A failure: exit 1, one line on stderr containing `needle`, nothing on stdout.
    static func refused(_ world: World, _ arguments: [String], saying needle: String) async throws {
        let result = try await world.petctl(arguments)
        #expect(result.status == 1 && result.output.isEmpty, "\(arguments): \(result)")
        #expect(
            result.errors.split(separator: "\n").count == 1 && result.errors.contains(needle), "\(arguments): \(result)"
        )
    }

    @Test("ListTasks records carry number (i): 1, 2, 3 in the order added, never reused, via busctl and gdbus")
    func onTheBus() async throws {
        let world = try await World("numbers-bus")
        defer { world.close() }
        _ = try await world.daemon(now: Self.monday)
        let c = try world.client()
        let late = try c.addTask("Late", "18:00")
        let gone = try c.addTask("Gone", "09:00")
        _ = try c.addTask("Early", "08:30")
        _ = try c.call("DeleteTask", [.string(gone)])
        _ = try c.addTask("Noon", "12:00")
        _ = try c.addTaskFor("Plan", "10:00", day: "tomorrow")

        let busctl = try await world.busctlCall("ListTasks", ["s", ""])
        #expect(busctl.status == 0, "\(busctl)")
        let json = try JSONSerialization.jsonObject(with: Data(busctl.output.utf8)) as? [String: Any]
        let records = ((json?["data"] as? [Any])?.first as? [[String: Any]]) ?? []
        let numbers = records.map {
            (($0["number"] as? [String: Any])?["type"] as? String, ($0["number"] as? [String: Any])?["data"] as? Int)
        }
        #expect(numbers.map(\.0) == ["i", "i", "i"], "\(busctl.output)")
        #expect(numbers.map(\.1) == [3, 4, 1], "day order: Early 08:30 (3), Noon (4), Late (1); 2 was deleted")
        #expect(try c.tasks().first { $0.string("id") == late }?.int("number") == 1)

        let gdbus = try await world.gdbusCall("ListTasks", ["tomorrow"])
        #expect(gdbus.status == 0 && gdbus.output.contains("'number': <1>"), "\(gdbus)")
    }

    @Test("petctl names today's tasks N and tomorrow's +N; errors quote what was typed")
    func naming() async throws {
        let world = try await World("numbers-ctl")
        defer { world.close() }
        _ = try await world.daemon(now: Self.monday)
        let c = try world.client()
        _ = try c.addTask("Earlier", "07:00")
        _ = try c.call("DeleteTask", [.string(try c.tasks()[0].string("id") ?? "")])
        #expect(try await Self.ok(world, ["add", "09:00", "Walk"]) == "Added 2: 09:00 Walk (today).\n")
        #expect(
            try await Self.ok(world, ["add", "10:00", "Plants", "--tomorrow"]) == "Added +1: 10:00 Plants (tomorrow).\n"
        )
        #expect(
            try await Self.ok(world, ["add", "07:30", "Stretch", "--repeat", "daily"])
                == "Added r4: 07:30 Stretch (today, repeating daily). Today's copy is 3.\n"
                + "07:30 has already passed today: the task is due now.\n")
        let today = try await Self.ok(world, ["today", "--plain"])
        #expect(today.contains("Task 3 at 07:30, Stretch") && today.contains("Task 2 at 09:00, Walk"), "\(today)")

        #expect(try await Self.ok(world, ["edit", "2", "--title", "Long walk"]) == "Updated 2: 09:00 Long walk.\n")
        #expect(try await Self.ok(world, ["edit", "+1", "--time", "11:00"]) == "Updated +1: 11:00 Plants.\n")
        #expect(try c.tasks("tomorrow").first?.string("time") == "11:00")
        #expect(try await Self.ok(world, ["done", "2"]).hasPrefix("Done: 2 Long walk, +"))

        try await Self.refused(world, ["done", "2"], saying: "Task 2 is already done")
        try await Self.refused(world, ["done", "1"], saying: "there is no task 1 today")
        try await Self.refused(world, ["rm", "+5"], saying: "there is no task +5 tomorrow")
        try await Self.refused(world, ["rm", "2"], saying: "Task 2 is done")
        try await Self.refused(world, ["done", "+1"], saying: "+1 is tomorrow's task")
        // A template is not a day's task: petctl says which number to use instead.
        try await Self.refused(
            world, ["done", "t-4"],
            saying: "r4 is a repeating task, not one of today's tasks; today's copy is 3: petctl done 3")
        let help = try await world.petctl(["help", "done"])
        #expect(!help.output.contains("t-N") && !help.output.contains("template"), "\(help)")

        #expect(
            try await Self.ok(world, ["rm", "+1"])
                == "Deleted +1: 11:00 Plants.\nBring it back: petctl add 11:00 Plants --tomorrow\n")
        #expect(try c.tasks("tomorrow").isEmpty)
        #expect(
            try await Self.ok(world, ["add", "12:00", "Lunch"]) == "Added 4: 12:00 Lunch (today).\n",
            "1, deleted, is never handed out again")
    }

    @Test("editing a template changes today's untouched copy and says so; removing one says today's copy stays")
    func templateEdits() async throws {
        let world = try await World("numbers-template")
        defer { world.close() }
        _ = try await world.daemon(now: Self.monday)
        let c = try world.client()
        _ = try await Self.ok(world, ["add", "09:00", "Stretch", "--repeat", "daily"])
        #expect(
            try await Self.ok(world, ["edit", "r1", "--time", "09:30", "--title", "Yoga"])
                == "Updated r1: 09:30 Yoga, and today's copy 1 with it.\n")
        let copy = try #require(try c.tasks().first)
        #expect(copy.string("title") == "Yoga" && copy.string("time") == "09:30")
        // Edited on its own, the copy keeps its own title.
        _ = try await Self.ok(world, ["edit", "1", "--title", "Long yoga"])
        #expect(
            try await Self.ok(world, ["edit", "t-1", "--title", "Pilates"])
                == "Updated r1: 09:30 Pilates from tomorrow on; today's copy 1 stays as it is (done or edited on its own).\n"
        )
        #expect(try c.tasks().first?.string("title") == "Long yoga")
        #expect(
            try await Self.ok(world, ["rm", "t-1"])
                == "Deleted r1 (09:30 Pilates): no more copies from tomorrow on; today's copy 1 stays.\n"
                + "Bring it back: petctl add 09:30 Pilates --repeat daily --tomorrow\n")
        #expect(try c.tasks().count == 1)
        // The line brings the template back from tomorrow on: no second copy today.
        _ = try await Self.ok(world, ["add", "09:30", "Pilates", "--repeat", "daily", "--tomorrow"])
        #expect(try c.tasks().count == 1)
        #expect(try await Self.ok(world, ["templates"]).contains("Pilates"))
    }

    @Test("petctl tomorrow: the tasks added, the repeating ones, rollover's copies, a rest day; at 80 and 40 columns")
    func tomorrow() async throws {
        let world = try await World("numbers-tomorrow")
        defer { world.close() }
        _ = try await world.daemon(now: Self.monday)
        let c = try world.client()
        _ = try c.addTask("Write report", "14:00")
        _ = try c.addTaskFor("Dentist", "09:30", day: "tomorrow")
        _ = try c.addTaskFor("Stretch", "07:00", day: "today", repeat: "weekdays")
        _ = try c.addTaskFor("Gym", "18:00", day: "today", repeat: "wed")
        let wide = try await Self.ok(world, ["tomorrow"], columns: 80)
        #expect(
            wide == """
                Tomorrow, Tuesday 3 March · 2 tasks

                r3  07:00  Stretch                                              repeats weekdays
                +1  09:30  Dentist

                Change one by its handle: petctl edit HANDLE --time 09:30, petctl rm HANDLE.

                """, "\(wide)")
        try c.setProperty("Rollover", .bool(true))
        try c.setRest("tomorrow", "tomorrow", true)
        let narrow = try await Self.ok(world, ["tomorrow"], columns: 40)
        #expect(
            narrow == """
                Tomorrow, Tuesday 3 March · 2 tasks
                Rest day: nothing is charged; repeating
                tasks skip it.

                +1  09:30  Dentist
                 1  14:00  Write report
                           rolls over if not done

                Change one by its handle: petctl edit
                HANDLE --time 09:30, petctl rm HANDLE.

                """, "\(narrow)")
        // The handles shown reach them.
        #expect(try await Self.ok(world, ["edit", "+1", "--time", "10:00"]) == "Updated +1: 10:00 Dentist.\n")
        #expect(try await Self.ok(world, ["edit", "t-3", "--time", "07:15"]).hasPrefix("Updated r3"))
        #expect(try await Self.ok(world, ["templates"]).contains("r3  07:15  weekdays  Stretch"))
    }

    @Test("the timeline shows rollover's copies on the next day")
    func timelineRollover() async throws {
        let world = try await World("numbers-timeline")
        defer { world.close() }
        _ = try await world.daemon(now: "2026-03-02T20:10:00+01:00")
        let c = try world.client()
        _ = try c.addTask("Write report", "21:00")
        var line = try await Self.ok(world, ["timeline"], columns: 80).split(separator: "\n")[5]
        #expect(line.hasPrefix("02:00") && line.contains("no tasks"), "\(line)")
        try c.setProperty("Rollover", .bool(true))
        line = try await Self.ok(world, ["timeline"], columns: 80).split(separator: "\n")[5]
        #expect(line.contains("0/1") && line.contains("21:00 Write report"), "\(line)")
    }

    @Test("a repeating task is rN, never a number: listed, completed and taken as rN, the older t-N still taken")
    func templatesAreR() async throws {
        let world = try await World("numbers-templates")
        defer { world.close() }
        _ = try await world.daemon(now: Self.monday)
        // Ids and day numbers apart: the template r1's copy is 1, task 2 is a one-off, and the
        // template r4's copy is 3 (as t-4's was) — `rm 4` and `rm r4` no longer look alike.
        #expect(
            try await Self.ok(world, ["add", "20:00", "Stretch", "--repeat", "daily"])
                == "Added r1: 20:00 Stretch (today, repeating daily). Today's copy is 1.\n")
        _ = try await Self.ok(world, ["add", "21:00", "Walk"])
        #expect(
            try await Self.ok(world, ["add", "22:00", "Read", "--repeat", "weekdays"])
                == "Added r4: 22:00 Read (today, repeating weekdays). Today's copy is 3.\n")
        #expect(try await Self.ok(world, ["templates"]) == "r1  20:00  daily     Stretch\nr4  22:00  weekdays  Read\n")
        let tomorrow = try await Self.ok(world, ["tomorrow"], columns: 80)
        #expect(tomorrow.contains("\nr1  20:00  Stretch") && tomorrow.contains("\nr4  22:00  Read"), "\(tomorrow)")
        // Nothing petctl prints names a template t-N any more, in any language.
        for language in ["C", "en_US.UTF-8", "de_DE.UTF-8", "fr_FR.UTF-8"] {
            for command in [["templates"], ["tomorrow"], ["today"], ["help", "rm"], ["help", "edit"], ["help", "templates"], ["--help"]] {
                let out = try await world.petctl(command, columns: 80, environment: ["LANG": language, "LC_ALL": language])
                let stale = command.count == 1 && command != ["--help"] ? ["t-1", "t-3"] : ["t-N"]
                #expect(out.status == 0 && !stale.contains { out.output.contains($0) }, "\(language) \(command): \(out)")
            }
        }
        let missing = try await world.petctl(["rm", "r9"])
        #expect(missing.status == 1 && missing.errors.contains("with id r9;") && !missing.errors.contains("t-9"), "\(missing)")
        let german = try await world.petctl(["rm", "t-9"], environment: ["LANG": "de_DE.UTF-8", "LC_ALL": "de_DE.UTF-8"])
        #expect(german.status == 1 && !german.errors.contains("t-9") && german.errors.contains("Vorlage"), "\(german)")
        // Completion offers rN with what it is.
        let petctl = try productBinary("petctl", override: "PETCTL")
        let words = ["---completion", "rm", "--", "positional@0", "2", "0", petctl, "rm", "r"]
        let zsh = try await world.petctl(words, environment: ["SAP_SHELL": "zsh"])
        #expect(
            zsh.output.split(separator: "\n").filter { $0.hasPrefix("r") }
                == ["r1:daily 20:00 Stretch", "r4:weekdays 22:00 Read"], "\(zsh)")
        #expect(!zsh.output.contains("t-"), "\(zsh)")
        // rm 3 deletes today's copy; r4 (the template) stays, and rm r4 then stops it.
        #expect(try await Self.ok(world, ["rm", "3"]).hasPrefix("Deleted 3: 22:00 Read."))
        #expect(try await Self.ok(world, ["templates"]).contains("r4  22:00  weekdays  Read"))
        #expect(
            try await Self.ok(world, ["rm", "r4"])
                == "Deleted r4 (22:00 Read): no more copies from tomorrow on.\n"
                + "Bring it back: petctl add 22:00 Read --repeat weekdays\n")
        // The older form, as scripts and habits type it, names the same template.
        #expect(
            try await Self.ok(world, ["edit", "t-1", "--time", "20:30"])
                == "Updated r1: 20:30 Stretch, and today's copy 1 with it.\n")
        try await Self.refused(
            world, ["done", "R1"],
            saying: "r1 is a repeating task, not one of today's tasks; today's copy is 1: petctl done 1")
        #expect(try await Self.ok(world, ["templates"]) == "r1  20:30  daily  Stretch\n")
    }

    @Test("shell completion offers today's numbers with titles, and never activates the daemon")
    func completion() async throws {
        let world = try await World.activating("numbers-complete", now: Self.monday)
        defer { world.close() }
        let petctl = try productBinary("petctl", override: "PETCTL")
        let words = ["---completion", "done", "--", "positional@0", "2", "0", petctl, "done", ""]
        // No daemon: no candidates, and nothing was started.
        let none = try await world.petctl(words, environment: ["SAP_SHELL": "zsh"])
        #expect(none.status == 0 && none.output.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty, "\(none)")
        let c = try world.client()
        #expect(
            try c.connection.call(
                destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus", interface: "org.freedesktop.DBus",
                member: "NameHasOwner", arguments: [.string("io.petprogress.PetProgress1")]
            ).first == .bool(false), "completing a word activated the daemon")

        // Running (activated by this call): zsh gets `number:time title`, bash the numbers.
        _ = try c.addTask("Walk the dog", "09:00")
        _ = try c.addTask("Write report", "14:30")
        let zsh = try await world.petctl(words, environment: ["SAP_SHELL": "zsh"])
        #expect(
            zsh.output.split(separator: "\n").prefix(2) == ["1:09:00 Walk the dog", "2:14:30 Write report"], "\(zsh)")
        // bash through the generated script itself.
        let script = world.sandbox.path("petctl.bash")
        let generated = try await world.petctl(["--generate-completion-script", "bash"])
        try generated.output.write(toFile: script, atomically: true, encoding: .utf8)
        let bash = try await world.sandbox.run(
            "bash",
            [
                "-c",
                #"source "$1"; COMP_WORDS=("$2" edit ""); COMP_CWORD=2; COMP_LINE="$2 edit "; COMP_POINT=${#COMP_LINE}; _petctl; printf '%s\n' "${COMPREPLY[@]}""#,
                "bash", script, petctl,
            ], environment: world.petctlEnvironment)
        #expect(bash.output.split(separator: "\n") == ["1", "2"], "\(bash)")
    }
}
