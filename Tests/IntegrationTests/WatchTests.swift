import Foundation
import TestSupport
import Testing

/// `petctl watch` through a pipe: one line at start, one per tick and per task change,
/// each within a second and never two for one change; the due and overdue flips without any signal; the
/// daemon stopping and coming back; SIGTERM and a closed pipe end it with status 0.
@Suite("petctl watch")
struct WatchTests {
    /// The `date` and `tasks_total` of a JSON record.
    static func fields(_ record: String) -> (date: Int64, total: Int)? {
        guard let object = try? JSONSerialization.jsonObject(with: Data(record.utf8)) as? [String: Any],
            let date = (object["date"] as? NSNumber)?.int64Value, let total = object["tasks_total"] as? Int
        else { return nil }
        return (date, total)
    }

    /// At 1200× a simulated hour passes every 3 s: each tick gives exactly one line with the next
    /// tick's date; a task change gives one line, within a second, and no tick line repeats.
    @Test("one line per tick and per task change, promptly, never two for one change")
    func ticksAndChanges() async throws {
        let world = try await World("watch-ticks")
        defer { world.close() }
        _ = try await world.daemon(now: "2026-03-02T10:50:00+01:00", timeScale: 1200)
        let reader = try WatchReader(world: world, arguments: ["--format", "json"])
        #expect(await reader.waitForRecords(1))
        // Two ticks after the first line.
        #expect(await reader.waitForRecords(3, timeout: .seconds(12)), "\(reader.records) \(reader.errors)")
        let before = WatchReader.now()
        _ = try world.client().addTask("Email", "23:30")
        // The change's line, whether or not a tick's line (read just before the change) comes first.
        #expect(await poll(timeout: .seconds(10)) { reader.lines.contains { Self.fields($0.text)?.total == 1 } })
        let changeLine = reader.lines.first { Self.fields($0.text)?.total == 1 }
        #expect((changeLine?.at ?? .infinity) - before < 1.0, "a task change reaches the panel within a second")
        reader.process.send(SIGKILL)
        let dates = reader.records.compactMap { Self.fields($0) }
        // Tick lines: each date one hour after the last; the change line keeps the date it saw.
        var last = dates.first?.date ?? 0
        var ticks = 0
        var changes = 0
        for (date, total) in dates.dropFirst() {
            if total == 1, date == last {  // the task change: a line that keeps the date it saw
                changes += 1
                continue
            }
            #expect(date == last + 3600, "\(dates)")
            last = date
            ticks += 1
        }
        #expect(ticks >= 2)
        // One line for the change, however many ticks a slow machine lets through before the kill.
        #expect(changes == 1, "one line for the task change: \(dates)")
    }

    /// On the simulated clock (60×: a simulated minute per real second), with a 10-minute grace:
    /// the 13:20 task turns due at 13:20 (20 real seconds in) and overdue at 13:30:01 (30 s in),
    /// each a line of its own with no signal, both long before the 14:00 tick (60 s in) that would
    /// bring a line anyway. Watch's timer follows the daemon's clock and its scale (`GetStatus`).
    @Test("watch flips to 'due' at due_at and to 'overdue' at overdue_at, without any signal")
    func dueThenOverdueFlips() async throws {
        let world = try await World("watch-overdue")
        defer { world.close() }
        _ = try await world.daemon(now: "2026-03-02T13:00:00+01:00", timeScale: 60)
        let recorder = try SignalRecorder(bus: world.bus)
        defer { recorder.stop() }
        let client = try world.client()
        try client.setProperty("GraceMinutes", .uint32(10))
        let id = try client.addTask("Standup", "13:20")
        let record = try #require(try client.tasks().first { $0.string("id") == id })
        #expect(record.int("due_at") == 1_772_454_000 && record.int("overdue_at") == 1_772_454_601, "\(record)")
        let reader = try WatchReader(world: world, arguments: ["--format", "waybar"])
        #expect(await reader.waitForRecords(1))
        #expect(reader.records.first?.contains(#""class":["tadpole"]"#) == true, "\(reader.records)")
        let signalsBefore = recorder.all.count
        #expect(await reader.waitForRecords(2, timeout: .seconds(40)), "\(reader.records) \(reader.errors)")
        #expect(reader.records.last?.contains(#""class":["tadpole","due"]"#) == true, "\(reader.lines)")
        #expect(try client.status().int("now") ?? 0 >= 1_772_454_000, "not before due_at")
        #expect(await reader.waitForRecords(3, timeout: .seconds(40)), "\(reader.records) \(reader.errors)")
        #expect(reader.records.last?.contains(#""class":["tadpole","overdue"]"#) == true, "\(reader.lines)")
        #expect(try client.status().int("now") ?? 0 < 1_772_456_400, "before the 14:00 tick")
        #expect(recorder.all.count == signalsBefore, "no signal announced them: \(recorder.all.map(\.member))")
        #expect(reader.records.count == 3, "one line per flip: \(reader.records)")
        reader.process.send(SIGKILL)
    }

    /// On a bus that can activate the daemon: watch must not start it again once the user stopped
    /// it (it calls only while the name has an owner).
    @Test("the daemon stopped shows 'not running' and waits, without re-activating it; restarted, the entry is back")
    func daemonComesAndGoes() async throws {
        let world = try await World.activating("watch-restart", now: "2026-03-02T10:30:00+01:00")
        defer { world.close() }
        let data = world.sandbox.path("data")
        let client = try world.client()
        _ = try client.addTask("Email", "15:00")  // activates it
        let reader = try WatchReader(world: world, arguments: ["--format", "text"])
        #expect(await reader.waitForRecords(1))
        kill(try client.daemonPID(), SIGTERM)
        #expect(await reader.waitForRecords(2))
        #expect(reader.records.last == "💤 not running")
        try await Task.sleep(for: .seconds(1))
        #expect(reader.records.count == 2, "one 'not running' line: \(reader.records)")
        let owned = try client.connection.call(
            destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus", interface: "org.freedesktop.DBus",
            member: "NameHasOwner", arguments: [.string("io.petprogress.PetProgress1")])
        #expect(owned.first?.boolValue == false, "watch must not re-activate a daemon the user stopped")
        _ = try await world.daemon(dataDirectory: data, now: "2026-03-02T10:31:00+01:00")
        #expect(await reader.waitForRecords(3))
        #expect(reader.records.last == "🫧 0/1 15:00 Email", "\(reader.records)")
        reader.process.send(SIGKILL)
    }

    @Test("SIGTERM and SIGINT end watch with status 0, and nothing more is printed")
    func signalsEndIt() async throws {
        let world = try await World("watch-sigterm")
        defer { world.close() }
        _ = try await world.daemon(now: "2026-03-02T10:30:00+01:00")
        for (index, signal) in [SIGTERM, SIGINT].enumerated() {
            let reader = try WatchReader(world: world, arguments: [], label: "watch-\(index)")
            #expect(await reader.waitForRecords(1))
            let pid = try #require(reader.watchPID)
            kill(pid, signal)
            #expect(await poll { reader.exitStatus != nil })
            #expect(reader.exitStatus == 0 && reader.errors.isEmpty, "\(signal): \(reader.lines) \(reader.errors)")
            // Nothing more on the way out: an empty line would be one more (blank) record for a panel.
            #expect(reader.records.count == 1, "\(signal): \(reader.records)")
        }
    }

    @Test("the reader closing the pipe ends watch with status 0 and no message")
    func closedPipe() async throws {
        let world = try await World("watch-pipe")
        defer { world.close() }
        _ = try await world.daemon(now: "2026-03-02T10:30:00+01:00")
        let reader = try WatchReader(world: world, arguments: [], closeAfter: 1)
        #expect(await poll { reader.exitStatus != nil })
        #expect(reader.exitStatus == 0 && reader.errors.isEmpty, "\(reader.lines) \(reader.errors)")
    }
}
