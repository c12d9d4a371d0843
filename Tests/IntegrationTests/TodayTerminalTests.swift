import Foundation
import TestSupport
import Testing

/// `petctl today` in a real terminal: tmux on a socket of the test's own, at 80 and 40 columns.
/// A 09:00 task read at 09:10 is due (still on time with the hour's grace), not overdue; read at
/// 10:05, past the grace, it is overdue (petprogress(7) §3).
@Suite("Today screen in tmux")
struct TodayTerminalTests {
    /// The screen `petctl today` leaves in a `columns`-wide tmux window, trailing blanks trimmed.
    static func screen(_ world: World, columns: Int) async throws -> [String] {
        let socket = world.sandbox.path("tmux-\(columns)")
        let petctl = try productBinary("petctl", override: "PETCTL")
        var environment = world.petctlEnvironment
        environment["TERM"] = "xterm-256color"
        environment["SHELL"] = "/bin/sh"
        func tmux(_ arguments: [String]) async throws -> ToolResult {
            try await world.sandbox.run(
                "/usr/bin/tmux", ["-S", socket, "-f", "/dev/null"] + arguments, environment: environment)
        }
        let started = try await tmux([
            "new-session", "-d", "-x", "\(columns)", "-y", "30", "\(petctl) today; echo '-- end --'; exec sleep 120",
        ])
        #expect(started.status == 0, "\(started)")
        defer {
            // The server forks away from the sandbox's children: stop it through its own socket.
            _ = try? world.sandbox.runBlocking(
                "/usr/bin/tmux", ["-S", socket, "kill-server"], environment: environment)
        }
        var lines: [String] = []
        let ended = await poll(timeout: .seconds(30), every: .milliseconds(200)) {
            let captured =
                (try? world.sandbox.runBlocking(
                    "/usr/bin/tmux", ["-S", socket, "capture-pane", "-p"], environment: environment))?.output ?? ""
            lines = captured.components(separatedBy: "\n").map { String($0.reversed().drop { $0 == " " }.reversed()) }
            return lines.contains("-- end --")
        }
        #expect(ended, "\(lines)")
        return Array(lines.prefix { $0 != "-- end --" })
    }

    /// A task row as the screen lays it out: the notes right-aligned at `columns`.
    static func row(_ lead: String, _ title: String, _ notes: String, columns: Int) -> String {
        let gap = columns - lead.count - title.count - notes.count
        return lead + title + String(repeating: " ", count: gap) + notes
    }

    @Test("'due' inside the grace window, 'overdue' after it, at 80 and 40 columns")
    func dueThenOverdue() async throws {
        let world = try await World("today-tmux")
        defer { world.close() }
        let first = try await world.daemon(now: "2026-03-02T09:10:00+01:00")
        let client = try world.client()
        _ = try client.addTask("Standup", "09:00")
        _ = try client.addTask("Review", "11:00")
        for columns in [80, 40] {
            let lines = try await Self.screen(world, columns: columns)
            #expect(lines.contains(Self.row("1  09:00 → ", "Standup", "next · due", columns: columns)), "\(lines)")
            #expect(lines.contains("2  11:00   Review"), "\(lines)")
            #expect(!lines.joined().contains("overdue"), "\(lines)")
        }
        _ = await first.stop()
        _ = try await world.daemon(dataDirectory: first.dataDirectory, now: "2026-03-02T10:05:00+01:00")
        for columns in [80, 40] {
            let lines = try await Self.screen(world, columns: columns)
            #expect(lines.contains(Self.row("1  09:00 → ", "Standup", "next · overdue", columns: columns)), "\(lines)")
            #expect(lines.contains("2  11:00   Review"), "\(lines)")
        }
    }
}
