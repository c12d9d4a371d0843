import DBusKit
import Foundation
import TestSupport
import Testing

/// Limits and edges of the rules as seen over the bus (petprogress(7) §3): per-day and template limits,
/// title lengths in code points, snooze at the end of the day, concurrent valid writers, calls
/// whose sender does not wait for the reply.
@Suite("Limits and edges")
struct EdgeTests {
    static let now = "2026-03-02T08:30:00+01:00"
    static let invalid = "io.petprogress.PetProgress1.Error.InvalidArgument"

    @Test("at most 200 tasks a day and 100 templates")
    func limits() async throws {
        let world = try await World("limits")
        defer { world.close() }
        _ = try await world.daemon(now: Self.now)
        let client = try world.client()
        for n in 0..<200 { _ = try client.addTask("Task \(n)", String(format: "%02d:%02d", 10 + n / 60, n % 60)) }
        #expect(client.errorName("AddTask", [.string("One too many"), .string("20:00")]) == Self.invalid)
        #expect(try client.tasks().count == 200)
        for n in 0..<100 { _ = try client.addTaskFor("Template \(n)", "21:00", day: "tomorrow", repeat: "sat") }
        #expect(
            client.errorName("AddTaskFor", [.string("t101"), .string("21:00"), .string("tomorrow"), .string("sun")])
                == Self.invalid)
        #expect(try client.call("ListTemplates").first?.vardictArrayValue?.count == 100)
        #expect(try client.status().int("mutations") == 300)
    }

    @Test("titles: trimmed, 200 code points accepted, 201 not (counted in code points, not bytes or graphemes)")
    func titleLengths() async throws {
        let world = try await World("titles")
        defer { world.close() }
        _ = try await world.daemon(now: Self.now)
        let client = try world.client()
        let padded = try client.addTask("  Walk the dog \t", "09:00")
        #expect(try client.tasks().first { $0.string("id") == padded }?.string("title") == "Walk the dog")
        let wide = String(repeating: "猫", count: 200)  // 200 code points, 600 UTF-8 bytes
        let wideID = try client.addTask(wide, "09:00")
        #expect(try client.tasks().first { $0.string("id") == wideID }?.string("title") == wide)
        let combining = String(repeating: "e\u{301}", count: 100)  // 100 graphemes, 200 code points
        _ = try client.addTask(combining, "09:00")
        #expect(
            client.errorName("AddTask", [.string(String(repeating: "e\u{301}", count: 100) + "x"), .string("09:00")])
                == Self.invalid)
        #expect(
            client.errorName("AddTask", [.string(String(repeating: "👍🏽", count: 101)), .string("09:00")])
                == Self.invalid,
            "101 emoji with a modifier are 202 code points")
        #expect(client.errorName("UpdateTask", [.string(wideID), .string(wide + "猫"), .string("")]) == Self.invalid)
    }

    @Test("snooze stops a minute before the day ends, then answers InvalidArgument; a time change clears it")
    func snoozeAtDayEnd() async throws {
        let world = try await World("snoozeend")
        defer { world.close() }
        _ = try await world.daemon(now: "2026-03-02T23:40:00+01:00")
        let client = try world.client()
        let id = try client.addTask("Late", "23:50")
        #expect(
            try client.call("Snooze", [.string(id)]).first == .int64(unix("2026-03-02T23:59:00+01:00")),
            "min(23:50+15, end-60)")
        #expect(client.errorName("Snooze", [.string(id)]) == Self.invalid, "too late in the day to snooze")
        #expect(client.errorName("SnoozeNext") == Self.invalid)
        #expect(try client.tasks().first?.int("snoozed_until") == unix("2026-03-02T23:59:00+01:00"))
        try client.call("UpdateTask", [.string(id), .string(""), .string("23:45")])
        let task = try #require(try client.tasks().first)
        #expect(task.int("snoozed_until") == 0)
        #expect(task.string("effective_time") == "23:45")
    }

    @Test("twenty concurrent valid AddTask calls from dbus-send: twenty ids, twenty mutations, twenty TasksChanged")
    func concurrentWriters() async throws {
        let world = try await World("writers")
        defer { world.close() }
        let recorder = try SignalRecorder(bus: world.bus)
        defer { recorder.stop() }
        _ = try await world.daemon(now: Self.now)
        var children: [Spawned] = []
        for n in 0..<20 {
            children.append(
                try world.sandbox.spawn(
                    "dbus-send",
                    [
                        "--bus=\(world.bus.address)", "--print-reply", "--reply-timeout=20000",
                        "--dest=\(PetDaemon.name)",
                        PetDaemon.path, "\(PetDaemon.interface).AddTask", "string:Parallel \(n)",
                        "string:12:\(String(format: "%02d", n))",
                    ],
                    environment: world.bus.environment, label: "dbus-send"))
        }
        var ids: Set<String> = []
        for child in children {
            #expect(await child.waitExit(timeout: .seconds(30)) == 0, "\(child.errors)")
            if let id = ClientTests.firstString(child.output, prefix: "20260302-") { ids.insert(id) }
        }
        #expect(ids.count == 20)
        let client = try world.client()
        #expect(Set(try client.tasks().compactMap { $0.string("id") }) == ids)
        #expect(try client.status().int("mutations") == 20)
        #expect(await recorder.wait { $0.filter { $0.member == "TasksChanged" }.count == 20 })
    }

    @Test("a call sent without waiting for the reply is still applied, and the daemon carries on")
    func noReplyExpected() async throws {
        let world = try await World("noreply")
        defer { world.close() }
        let daemon = try await world.daemon(now: Self.now)
        let result = try await world.sandbox.run(
            "dbus-send",
            [
                "--bus=\(world.bus.address)", "--type=method_call", "--dest=\(PetDaemon.name)", PetDaemon.path,
                "\(PetDaemon.interface).AddTask", "string:Fire and forget", "string:09:00",
            ],
            environment: world.bus.environment)
        #expect(result.status == 0)
        let client = try world.client()
        #expect(await poll { (try? client.tasks().count) == 1 })
        #expect(try client.tasks().first?.string("title") == "Fire and forget")
        #expect(daemon.process.isRunning)
    }
}
