import Foundation
import TestSupport
import Testing

/// `petctl today --interactive` in a real terminal: tmux on a socket of the test's own, a shell in
/// the pane, keys sent with send-keys, the screen read with capture-pane, and every action checked
/// with busctl to have happened exactly once.
@Suite("Interactive Today screen in tmux")
struct TodayInteractiveTests {
    static let now = "2026-03-02T09:10:00+01:00"

    /// A tmux server of the test's own with one `columns`-wide pane running a shell.
    final class Pane {
        let world: World
        let socket: String
        let environment: [String: String]

        init(_ world: World, columns: Int, name: String) async throws {
            self.world = world
            socket = world.sandbox.path("tmux-\(name)")
            var environment = world.petctlEnvironment
            environment["TERM"] = "xterm-256color"
            environment["SHELL"] = "/bin/sh"
            environment["PS1"] = "$ "
            environment["PETCTL"] = try productBinary("petctl", override: "PETCTL")
            self.environment = environment
            let started = try await tmux(["new-session", "-d", "-x", "\(columns)", "-y", "24", "/bin/sh"])
            #expect(started.status == 0, "\(started)")
        }

        @discardableResult
        func tmux(_ arguments: [String]) async throws -> ToolResult {
            try await world.sandbox.run(
                "/usr/bin/tmux", ["-S", socket, "-f", "/dev/null"] + arguments, environment: environment)
        }

        func keys(_ keys: String...) async throws { try await tmux(["send-keys", "-t", "0"] + keys) }

        /// Types a command line into the shell.
        func type(_ line: String) async throws { try await tmux(["send-keys", "-t", "0", "-l", line + "\n"]) }

        /// The pane's lines, trailing blanks trimmed.
        func lines() -> [String] {
            let captured =
                (try? world.sandbox.runBlocking(
                    "/usr/bin/tmux", ["-S", socket, "capture-pane", "-p", "-t", "0"], environment: environment))?
                .output ?? ""
            return captured.components(separatedBy: "\n").map { String($0.reversed().drop { $0 == " " }.reversed()) }
        }

        /// Waits until some line satisfies `match`; the screen when it does not.
        func waitFor(_ what: String, timeout: Duration = .seconds(20), _ match: @escaping (String) -> Bool) async {
            var seen: [String] = []
            let found = await poll(timeout: timeout, every: .milliseconds(100)) {
                seen = lines()
                return seen.contains(where: match)
            }
            #expect(found, "\(what) not on the screen:\n\(seen.joined(separator: "\n"))")
        }

        func waitFor(line: String) async { await waitFor(line) { $0 == line } }
        func waitFor(containing text: String) async { await waitFor(text) { $0.contains(text) } }
        /// A sentence on the status line: whole, or where it is wider than the screen, its first line
        /// (the line wraps at a space).
        func waitFor(sentence: String, columns: Int) async {
            await waitFor(sentence) {
                $0 == sentence || (screenColumns(of: sentence) > columns && sentence.hasPrefix($0 + " "))
            }
        }

        func close() {
            _ = try? world.sandbox.runBlocking(
                "/usr/bin/tmux", ["-S", socket, "kill-server"], environment: environment)
        }
    }

    /// Today's tasks as busctl reads them: title → record.
    static func tasks(_ world: World) async throws -> [String: [String: Any]] {
        let result = try await world.busctlCall("ListTasks", ["s", ""])
        #expect(result.status == 0, "\(result)")
        let object = try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [String: Any]
        let records = (object?["data"] as? [Any])?.first as? [[String: Any]] ?? []
        var byTitle: [String: [String: Any]] = [:]
        for record in records {
            guard let title = (record["title"] as? [String: Any])?["data"] as? String else { continue }
            byTitle[title] = record.compactMapValues { ($0 as? [String: Any])?["data"] }
        }
        return byTitle
    }

    static func stageXP(_ world: World) async throws -> Int? {
        let result = try await world.busctlCall("GetPet")
        let object = try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [String: Any]
        let pet = (object?["data"] as? [Any])?.first as? [String: Any]
        return (pet?["stage_xp"] as? [String: Any])?["data"] as? Int
    }

    @Test(
        "keys act once each, at 80 and 40 columns; another client's change shows; q gives the shell its modes back",
        arguments: [80, 40])
    func keys(columns: Int) async throws {
        let world = try await World("interactive-\(columns)")
        defer { world.close() }
        _ = try await world.daemon(now: Self.now)
        let client = try world.client()
        _ = try client.addTask("Standup", "09:00")
        _ = try client.addTask("Review", "11:00")
        _ = try client.addTask("Lunch", "12:30")
        let pane = try await Pane(world, columns: columns, name: "keys")
        defer { pane.close() }
        let (before, after) = (world.sandbox.path("stty-before"), world.sandbox.path("stty-after"))
        try await pane.type(
            "stty -a > \(before); \"$PETCTL\" today --interactive; echo \"exit $?\"; stty -a > \(after)")
        await pane.waitFor(line: "⏎ done  s snooze  u undo  ? keys  q quit")
        await pane.waitFor(containing: "› 1  09:00 → Standup")
        #expect(pane.lines().allSatisfy { $0.count <= columns })

        // Enter: the selected task (the next one) done, once.
        try await pane.keys("Enter")
        await pane.waitFor(line: "Done: 1 Standup, +2 XP (on time).")
        var tasks = try await Self.tasks(world)
        #expect(tasks["Standup"]?["done"] as? Bool == true)
        #expect(tasks["Review"]?["done"] as? Bool == false)
        #expect(try await Self.stageXP(world) == 2)

        // Enter again on a done task: the daemon's refusal, in its words.
        try await pane.keys("Space")
        await pane.waitFor(containing: "counts once.")
        #expect(try await Self.stageXP(world) == 2)

        // j then s: Review snoozed by one snooze length (15 minutes), not two; the line names it, as
        // petctl snooze does.
        try await pane.keys("j", "s")
        await pane.waitFor(line: "Snoozed 2 Review to 11:15.")
        tasks = try await Self.tasks(world)
        #expect(tasks["Review"]?["snoozed_until"] as? Int == Int(unix("2026-03-02T11:15:00+01:00")))

        // u: the last completion undone, named as petctl undo names it.
        try await pane.keys("u")
        await pane.waitFor(line: "Undone: 1 Standup is pending again.")
        tasks = try await Self.tasks(world)
        #expect(tasks["Standup"]?["done"] as? Bool == false)
        #expect(try await Self.stageXP(world) == 0)

        // x asks; another key keeps; x then y deletes the selected task only.
        try await pane.keys("Down", "x")
        await pane.waitFor(containing: "Delete 3 (Lunch)? y deletes it")
        try await pane.keys("n")
        await pane.waitFor(line: "Kept 3.")
        #expect(try await Self.tasks(world).count == 3)
        try await pane.keys("x", "y")
        await pane.waitFor(containing: "Deleted 3: ")
        await pane.waitFor(containing: " Lunch.")
        tasks = try await Self.tasks(world)
        #expect(tasks.keys.sorted() == ["Review", "Standup"])

        // Another client's change appears without a key.
        _ = try client.addTask("Call mum", "15:00")
        await pane.waitFor(containing: "Call mum")

        // ? lists the keys; any key closes the list.
        try await pane.keys("?")
        await pane.waitFor(containing: "x, Delete     delete it (y confirms)")
        try await pane.keys("k")
        await pane.waitFor(containing: "Call mum")

        // Resize: the screen is drawn again at the new width.
        let other = columns == 80 ? 40 : 80
        try await pane.tmux(["resize-window", "-t", "0", "-x", "\(other)"])
        await pane.waitFor(containing: "Call mum")
        await pane.waitFor(line: "⏎ done  s snooze  u undo  ? keys  q quit")
        #expect(pane.lines().allSatisfy { $0.count <= other })

        try await pane.keys("q")
        await pane.waitFor(line: "exit 0")
        #expect(try await Self.tasks(world).count == 3)
        try await Self.expectSameModes(before, after)
    }

    @Test(
        "tomorrow's list: its own tasks selected with the arrows, edited with e and deleted with x, at 80 and 40 columns; today's keys refused there",
        arguments: [80, 40])
    func tomorrowsList(columns: Int) async throws {
        let world = try await World("interactive-tomorrow")
        defer { world.close() }
        _ = try await world.daemon(now: Self.now)
        let c = try world.client()
        _ = try c.addTask("Standup", "09:00")
        _ = try c.addTaskFor("Dentist", "09:30", day: "tomorrow", repeat: "")
        _ = try c.addTaskFor("Plants", "11:00", day: "tomorrow", repeat: "")
        _ = try c.addTaskFor("Stretch", "07:00", day: "tomorrow", repeat: "daily")
        let pane = try await Pane(world, columns: columns, name: "tomorrow-\(columns)")
        defer { pane.close() }
        try await pane.type("\"$PETCTL\" today --interactive; echo \"exit $?\"")
        await pane.waitFor(containing: "› 1  09:00")
        try await pane.keys("t")
        // The first of its own tasks is selected (a repeating one is not: petctl edit rN changes it).
        await pane.waitFor(containing: "› +1  09:30  Dentist")
        await pane.waitFor(
            line: columns >= 48
                ? "t today  a add  e edit  x delete  ? keys  q quit" : "t today  a add  e edit  x delete  q quit")
        #expect(pane.lines().allSatisfy { $0.count <= columns }, "\(pane.lines().joined(separator: "\n"))")
        #expect(
            pane.lines().contains { $0.hasPrefix("  r4  07:00  Stretch") }, "\(pane.lines().joined(separator: "\n"))")
        // Done is today's: refused here, and nothing done.
        try await pane.keys("Enter")
        await pane.waitFor(containing: "This is tomorrow's list")
        // ↓ then e: the time of +2 changed, its title kept.
        try await pane.keys("Down")
        await pane.waitFor(containing: "› +2  11:00  Plants")
        try await pane.keys("e")
        await pane.waitFor(containing: "Edit +2")
        try await pane.keys("BSpace", "BSpace", "BSpace", "BSpace", "BSpace")
        try await pane.tmux(["send-keys", "-t", "0", "-l", "12:15"])
        try await pane.keys("Enter")
        try await pane.keys("Enter")
        await pane.waitFor(containing: "Updated +2: 12:15 Plants.")
        await pane.waitFor(containing: "› +2  12:15  Plants")
        var tomorrow = try c.tasks("tomorrow")
        #expect(tomorrow.first { $0.string("title") == "Plants" }?.string("time") == "12:15")
        // ↑ then x: asked, then deleted on y.
        try await pane.keys("Up")
        await pane.waitFor(containing: "› +1  09:30  Dentist")
        try await pane.keys("x")
        await pane.waitFor(containing: "Delete +1 (Dentist)?")
        try await pane.keys("y")
        await pane.waitFor(containing: "Deleted +1: 09:30 Dentist.")
        tomorrow = try c.tasks("tomorrow")
        #expect(tomorrow.map { $0.string("title") ?? "" } == ["Plants"], "\(tomorrow)")
        #expect(try c.tasks().count == 1 && (try c.tasks().first?.bool("done")) == false)
        // Back to today: its own selection and keys.
        try await pane.keys("t")
        await pane.waitFor(containing: "› 1  09:00")
        try await pane.keys("q")
        await pane.waitFor(line: "exit 0")
    }

    @Test("a adds (the time judged as it is typed), e edits, t shows tomorrow and adds to it, r marks a rest day")
    func promptKeys() async throws {
        let world = try await World("interactive-prompt")
        defer { world.close() }
        _ = try await world.daemon(now: Self.now)
        _ = try world.client().addTask("Standup", "09:00")
        let pane = try await Pane(world, columns: 80, name: "prompt")
        defer { pane.close() }
        try await pane.type("\"$PETCTL\" today --interactive; echo \"exit $?\"")
        await pane.waitFor(containing: "› 1  09:00")

        // a: a time that is not one is said at once and not taken; Esc changes nothing.
        try await pane.keys("a")
        try await pane.tmux(["send-keys", "-t", "0", "-l", "25:00"])
        await pane.waitFor(containing: "\"25:00\" is not a time petctl understands")
        try await pane.keys("Escape")
        await pane.waitFor(line: "Nothing changed.")
        #expect(try await Self.tasks(world).count == 1)

        // a, 7pm, Enter, a title, Enter: one task at 19:00.
        try await pane.keys("a")
        try await pane.tmux(["send-keys", "-t", "0", "-l", "7pm"])
        await pane.waitFor(containing: "at 19:00")
        try await pane.keys("Enter")
        try await pane.tmux(["send-keys", "-t", "0", "-l", "Plan the week"])
        try await pane.keys("Enter")
        await pane.waitFor(line: "Added 2: 19:00 Plan the week.")
        var tasks = try await Self.tasks(world)
        #expect(tasks.count == 2 && tasks["Plan the week"]?["time"] as? String == "19:00")

        // e on the selected task (1): its title changed, its time kept.
        try await pane.keys("e", "Enter")
        for _ in 0..<"Standup".count { try await pane.keys("BSpace") }
        try await pane.tmux(["send-keys", "-t", "0", "-l", "Daily standup"])
        try await pane.keys("Enter")
        await pane.waitFor(line: "Updated 1: 09:00 Daily standup.")
        tasks = try await Self.tasks(world)
        #expect(tasks["Daily standup"]?["time"] as? String == "09:00" && tasks["Standup"] == nil)

        // t: tomorrow's list; a adds to tomorrow; t back to today.
        try await pane.keys("t")
        await pane.waitFor(containing: "Tomorrow")
        // Its footer names only the keys that work there.
        await pane.waitFor(containing: "t today  a add  e edit  x delete  ? keys  q quit")
        try await pane.keys("a")
        try await pane.tmux(["send-keys", "-t", "0", "-l", "0930"])
        try await pane.keys("Enter")
        try await pane.tmux(["send-keys", "-t", "0", "-l", "Dentist"])
        try await pane.keys("Enter")
        await pane.waitFor(line: "Added +1: 09:30 Dentist.")
        await pane.waitFor(containing: "Dentist")
        let tomorrow = try world.client().tasks("tomorrow")
        #expect(tomorrow.count == 1 && tomorrow.first?.string("title") == "Dentist")
        try await pane.keys("t")
        await pane.waitFor(containing: "Daily standup")

        // r: today a rest day, then an ordinary day again.
        try await pane.keys("r")
        await pane.waitFor(containing: "Today is a rest day")
        let rest = try await world.busctlCall("ListRestDays")
        #expect(rest.output.contains("2026-03-02"), "\(rest)")
        try await pane.keys("r")
        await pane.waitFor(line: "Today is an ordinary day again.")
        #expect(!(try await world.busctlCall("ListRestDays")).output.contains("2026-03-02"))

        try await pane.keys("q")
        await pane.waitFor(line: "exit 0")
    }

    @Test("SIGTERM and SIGINT give the shell its terminal modes back", arguments: ["TERM", "INT"])
    func signals(name: String) async throws {
        let world = try await World("interactive-\(name)")
        defer { world.close() }
        _ = try await world.daemon(now: Self.now)
        _ = try world.client().addTask("Standup", "09:00")
        let pane = try await Pane(world, columns: 80, name: "signal")
        defer { pane.close() }
        let (before, after) = (world.sandbox.path("stty-before"), world.sandbox.path("stty-after"))
        // petctl's own pid, through exec, where the shell's child would be a pane's inner shell.
        let pidFile = world.sandbox.path("petctl.pid")
        try await pane.type(
            "stty -a > \(before); sh -c 'echo $$ > \(pidFile); exec \"$PETCTL\" today --interactive'; "
                + "echo \"exit $?\"; stty -a > \(after)")
        await pane.waitFor(containing: "Standup")
        let text = try String(contentsOfFile: pidFile, encoding: .utf8)
        let pid = try #require(Int32(text.trimmingCharacters(in: .whitespacesAndNewlines)))
        #expect(kill(pid, name == "TERM" ? SIGTERM : SIGINT) == 0)
        await pane.waitFor(line: "exit 0")
        try await Self.expectSameModes(before, after)
    }

    @Test("the petprogress://today handler's command opens the live screen in a terminal; q closes its window")
    func deepLink() async throws {
        let world = try await World("interactive-link")
        defer { world.close() }
        _ = try await world.daemon(now: Self.now)
        _ = try world.client().addTask("Standup", "09:00")
        let pane = try await Pane(world, columns: 40, name: "link")
        defer { pane.close() }
        // What the desktop entry runs (Exec=petctl open --hold %u, Terminal=true).
        try await pane.type("\"$PETCTL\" open --hold petprogress://today; echo \"exit $?\"")
        await pane.waitFor(line: "⏎ done  s snooze  u undo  ? keys  q quit")
        await pane.waitFor(containing: "Standup")
        try await pane.keys("q")
        // Left at once, without --hold's "press Enter": the window would close.
        await pane.waitFor(line: "exit 0")
    }

    @Test("killing the pane (SIGHUP) leaves no process behind")
    func hangUp() async throws {
        let world = try await World("interactive-hup")
        defer { world.close() }
        _ = try await world.daemon(now: Self.now)
        let pane = try await Pane(world, columns: 40, name: "hup")
        defer { pane.close() }
        try await pane.type("exec \"$PETCTL\" today --interactive")
        await pane.waitFor(containing: "no tasks yet")
        // exec: petctl is the pane's own process.
        let shown = try await pane.tmux(["display-message", "-p", "-t", "0", "#{pane_pid}"]).output
        let pid = try #require(Int32(shown.trimmingCharacters(in: .whitespacesAndNewlines)))
        try await pane.tmux(["kill-pane", "-t", "0"])
        let gone = await poll(timeout: .seconds(10), every: .milliseconds(100)) { kill(pid, 0) != 0 && errno == ESRCH }
        #expect(gone, "petctl \(pid) still runs after its pane was killed")
    }

    @Test("the daemon stopped shows 'not running'; started again, the screen recovers")
    func daemonRestart() async throws {
        let world = try await World("interactive-restart")
        defer { world.close() }
        let first = try await world.daemon(now: Self.now)
        _ = try world.client().addTask("Standup", "09:00")
        let pane = try await Pane(world, columns: 40, name: "restart")
        defer { pane.close() }
        try await pane.type("\"$PETCTL\" today --interactive; echo \"exit $?\"")
        await pane.waitFor(containing: "Standup")
        _ = await first.stop()
        await pane.waitFor(line: "not running: waiting for petprogressd")
        // Nothing is lost from the screen while the daemon is away, and keys send nothing.
        await pane.waitFor(containing: "Standup")
        try await pane.keys("Enter")
        _ = try await world.daemon(dataDirectory: first.dataDirectory, now: Self.now)
        await pane.waitFor(containing: "Standup")
        await pane.waitFor("the status line cleared") { _ in
            !pane.lines().contains("not running: waiting for petprogressd")
        }
        #expect(try await Self.tasks(world)["Standup"]?["done"] as? Bool == false)
        try await pane.keys("Enter")
        await pane.waitFor(line: "Done: 1 Standup, +2 XP (on time).")
        try await pane.keys("q")
        await pane.waitFor(line: "exit 0")
    }

    @Test("without a terminal it refuses with 64 and points at petctl today, changing nothing")
    func noTerminal() async throws {
        let world = try await World("interactive-pipe")
        defer { world.close() }
        _ = try await world.daemon(now: Self.now)
        let result = try await world.petctl(["today", "--interactive"])
        #expect(result.status == 64, "\(result)")
        #expect(result.output.isEmpty)
        #expect(result.errors.contains("needs a terminal; for a printout use petctl today"), "\(result)")
    }

    /// The two `stty -a` files are the same (the second may take a moment to appear).
    static func expectSameModes(_ beforePath: String, _ afterPath: String) async throws {
        let before = try String(contentsOfFile: beforePath, encoding: .utf8)
        var after = ""
        _ = await poll(timeout: .seconds(10)) {
            after = (try? String(contentsOfFile: afterPath, encoding: .utf8)) ?? ""
            return !after.isEmpty
        }
        // The first line has the window's size, which a resize changes.
        func modes(_ text: String) -> [Substring] { Array(text.split(separator: "\n").dropFirst()) }
        #expect(before.contains("icanon") && modes(after) == modes(before), "before:\n\(before)\nafter:\n\(after)")
    }

    /// More tasks than rows at 40 columns: marks show rows above and below the visible ones, and
    /// the selected task's cut title is shown whole beneath it.
    @Test("scroll marks and the selected task's whole title, at 40 columns")
    func marksAndDetail() async throws {
        let world = try await World("interactive-marks")
        defer { world.close() }
        _ = try await world.daemon(now: Self.now)
        let client = try world.client()
        _ = try client.addTask("Water the plants on the balcony and the kitchen window sill", "08:30")
        for n in 0..<20 { _ = try client.addTask("Task \(n)", String(format: "%02d:%02d", 10 + n / 6, n % 6 * 10)) }
        let pane = try await Pane(world, columns: 40, name: "marks")
        defer { pane.close() }
        try await pane.type("\"$PETCTL\" today --interactive")
        await pane.waitFor(containing: "Task 0")
        // The first task is selected: its whole title under it, and a mark for the rows below.
        await pane.waitFor(containing: "kitchen window sill")
        #expect(pane.lines().contains { $0.hasPrefix("↓") }, "\(pane.lines())")
        #expect(!pane.lines().contains { $0.hasPrefix("↑") }, "\(pane.lines())")
        for _ in 0..<20 { try await pane.keys("j") }
        await pane.waitFor(containing: "Task 19")
        await pane.waitFor("a mark for the rows above") { $0.hasPrefix("↑") }
        #expect(pane.lines().allSatisfy { $0.count <= 40 })
        try await pane.keys("q")
    }
}
