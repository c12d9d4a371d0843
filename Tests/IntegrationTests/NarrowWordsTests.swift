import Foundation
import TestSupport
import Testing

/// At 40 columns nothing is cut mid-word: a task's notes that do not fit under its
/// title go whole onto the next line, in German and French as in English.
@Suite("40 columns: whole words")
struct NarrowWordsTests {
    @Test(arguments: [
        ("de_DE.UTF-8", ["nächste · überfällig", "täglich"]), ("fr_FR.UTF-8", ["suivante · en retard", "chaque jour"]),
    ])
    func notesAreNeverCut(_ locale: String, _ expected: [String]) async throws {
        let world = try await World("narrow-words")
        defer { world.close() }
        _ = try await world.daemon(now: "2026-03-02T09:10:00+01:00")
        _ = try world.client().addTaskFor("Blumen gießen", "08:00", day: "today", repeat: "daily")
        let screen = try await world.petctlOK(["today"], columns: 40, environment: ["LANG": locale, "LC_ALL": locale])
        let lines = screen.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        for note in expected { #expect(lines.contains(note), "\(locale): \(note)\n\(screen)") }
        #expect(!screen.contains("…"), "\(locale):\n\(screen)")
        #expect(screen.split(separator: "\n").allSatisfy { $0.count <= 40 }, "\(locale):\n\(screen)")
    }

    /// The interactive screen's status lines: the non-empty lines just above the footer (the last).
    static func statusLines(_ screen: [String]) -> [String] {
        let lines = Array(screen.reversed().drop { $0.isEmpty }.reversed())
        return Array(lines.dropLast().reversed().prefix { !$0.isEmpty }.reversed())
    }

    /// What the add/edit prompt says after each of `steps` (keys to send, or text to type after
    /// `-l`), in `locale` at `columns`: the status lines each time.
    static func prompt(_ world: World, _ locale: String, columns: Int, _ steps: [[String]]) async throws -> [[String]] {
        let pane = try await TodayInteractiveTests.Pane(world, columns: columns, name: "\(columns)-\(locale.prefix(2))")
        defer { pane.close() }
        try await pane.type("LANG=\(locale) LC_ALL=\(locale) \"$PETCTL\" today --interactive; echo \"exit $?\"")
        await pane.waitFor(containing: "› 1")
        var said: [[String]] = []
        for step in steps {
            let before = Self.statusLines(pane.lines())
            try await pane.tmux(["send-keys", "-t", "0"] + step)
            var now = before
            _ = await poll(timeout: .seconds(10), every: .milliseconds(100)) {
                now = Self.statusLines(pane.lines())
                return now != before
            }
            // Each key redraws: wait until the screen has stood still for a moment.
            var settled = now
            repeat {
                now = settled
                try await Task.sleep(for: .milliseconds(300))
                settled = Self.statusLines(pane.lines())
            } while settled != now
            said.append(now)
        }
        try await pane.keys("Escape")
        try await pane.keys("q")
        await pane.waitFor(containing: "exit 0")
        return said
    }

    /// The add/edit prompt at 40 columns: its words whole (each one a word of what a 200-column
    /// screen says, or `…` where words were left out), at most three lines, and the keys' hint
    /// (Enter, Esc) always whole on its own last line when the sentence does not fit — in C,
    /// en_US, de_DE and fr_FR, for an empty time, a refused one, a good one and a long title.
    @Test(arguments: ["C.UTF-8", "en_US.UTF-8", "de_DE.UTF-8", "fr_FR.UTF-8"])
    func promptWordsAreNeverCut(_ locale: String) async throws {
        let world = try await World("narrow-prompt")
        defer { world.close() }
        _ = try await world.daemon(now: "2026-03-02T09:10:00+01:00")
        _ = try world.client().addTask(
            "Ring the plumber about the dripping kitchen tap and ask whether Thursday morning still suits him", "10:00")
        let steps: [[String]] = [
            ["a"], ["-l", "25"], ["BSpace", "BSpace"], ["-l", "7"], ["BSpace"], ["-l", "13"], ["Escape"], ["e"], ["Enter"],
        ]
        let wide = try await Self.prompt(world, locale, columns: 200, steps)
        let narrow = try await Self.prompt(world, locale, columns: 40, steps)
        #expect(wide.count == steps.count && narrow.count == steps.count)
        for (n, (full, cut)) in zip(wide, narrow).enumerated() where ![["Escape"], ["BSpace"], ["BSpace", "BSpace"]].contains(steps[n]) {
            let words = Set(full.joined(separator: " ").split(separator: " ").map(String.init) + ["…"])
            let shown = cut.joined(separator: " ").split(separator: " ").map(String.init)
            #expect(!cut.isEmpty && cut.count <= 3 && cut.allSatisfy { $0.count <= 40 }, "\(locale) \(steps[n]):\n\(cut)")
            #expect(shown.allSatisfy(words.contains), "\(locale) \(steps[n]): a word cut\n\(cut)\nof\n\(full)")
            // The keys' hint: the wide line's last parenthesis, whole, ends the narrow status.
            if let open = full.last?.range(of: "(", options: .backwards) {
                let keys = String(full.last![open.lowerBound...])
                #expect(cut.joined(separator: " ").hasSuffix(keys), "\(locale) \(steps[n]): \(keys) lost\n\(cut)")
            }
        }
        // A bare hour is never offered as an impossible time (25:00, 25pm), in any language.
        #expect(!(wide[1].joined().contains("25:00") || wide[1].joined().contains("25pm")), "\(locale): \(wide[1])")
        #expect(wide[3].joined().contains("7:00") && wide[3].joined().contains("7pm"), "\(locale): \(wide[3])")
        #expect(wide[5].joined().contains("13:00") && !wide[5].joined().contains("13pm"), "\(locale): \(wide[5])")
    }
}
