import DBusKit
import Foundation
import TestSupport
import Testing

/// One bus connection per petctl process (docs/DECISIONS.md, "One connection per petctl process"),
/// seen from outside: dbus-daemon names each new connection `:1.N`, N counting up, so the
/// connections opened between two probes of the test's own are the gap between their numbers.
@Suite("One connection per petctl process")
struct OneConnectionTests {
    /// The number in the unique name the bus gives a new connection of the test's own.
    static func probe(_ world: World) throws -> Int {
        let connection = try Connection(address: world.bus.address)
        defer { connection.close() }
        let name = connection.uniqueName
        guard name.hasPrefix(":1."), let n = Int(name.dropFirst(3)) else {
            throw HarnessError("unexpected unique name \(name)")
        }
        return n
    }

    /// How many connections `body` made others open on the bus.
    static func opened(_ world: World, _ body: () async throws -> Void) async throws -> Int {
        let before = try probe(world)
        try await body()
        return try probe(world) - before - 1
    }

    @Test("every command, petctl done with and without a number among them, opens one connection")
    func commands() async throws {
        let world = try await World("one-connection")
        defer { world.close() }
        _ = try await world.daemon(now: "2026-03-02T08:10:00+01:00")
        let commands = [
            ["add", "09:00", "Walk"], ["add", "10:00", "Read"], ["add", "11:00", "Write", "--tomorrow"],
            ["done"], ["undo"], ["done", "2"], ["snooze"], ["today"], ["tomorrow"], ["status"],
            ["widget"], ["edit", "+1", "--time", "11:30"], ["rest", "tomorrow"], ["history"], ["export"],
        ]
        for arguments in commands {
            var result: ToolResult?
            let count = try await Self.opened(world) { result = try await world.petctl(arguments) }
            #expect(result?.status == 0, "\(arguments): \(String(describing: result))")
            #expect(count == 1, "petctl \(arguments.joined(separator: " ")) opened \(count) connections")
        }
    }

    @Test("petctl watch follows and re-reads on the connection it started with")
    func watch() async throws {
        let world = try await World("one-connection-watch")
        defer { world.close() }
        _ = try await world.daemon(now: "2026-03-02T08:10:00+01:00")
        let client = try world.client()
        var reader: WatchReader?
        let count = try await Self.opened(world) {
            let watching = try WatchReader(world: world, arguments: ["--format", "json"])
            reader = watching
            #expect(await watching.waitForRecords(1), "\(watching.errors)")
            _ = try client.addTask("Email", "09:00")
            #expect(await watching.waitForRecords(2), "\(watching.records) \(watching.errors)")
        }
        #expect(count == 1, "petctl watch opened \(count) connections")
        reader?.process.send(SIGKILL)
    }

    @Test("the interactive Today screen reads, acts and follows on one connection")
    func interactive() async throws {
        let world = try await World("one-connection-screen")
        defer { world.close() }
        _ = try await world.daemon(now: "2026-03-02T09:10:00+01:00")
        let client = try world.client()
        _ = try client.addTask("Standup", "09:00")
        let pane = try await TodayInteractiveTests.Pane(world, columns: 80, name: "one")
        defer { pane.close() }
        let count = try await Self.opened(world) {
            try await pane.type("\"$PETCTL\" today --interactive")
            await pane.waitFor(containing: "› 1  09:00 → Standup")
            try await pane.keys("Enter")
            await pane.waitFor(line: "Done: 1 Standup, +2 XP (on time).")
            _ = try client.addTask("Review", "11:00")
            await pane.waitFor(containing: "Review")
            try await pane.keys("q")
        }
        #expect(count == 1, "petctl today --interactive opened \(count) connections")
    }
}
