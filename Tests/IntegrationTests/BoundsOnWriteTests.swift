import DBusKit
import Foundation
import TestSupport
import Testing

/// The same bounds on every write (petprogress(7) §5), on the real daemon: a store
/// whose counters stand at 2³¹−1 (which loads) takes one more action; the action is refused with a
/// clear error and changes nothing; a restart loads the store, nothing set aside. A day after
/// 9999-12-31 is refused the same way.
@Suite("bounds on every write")
struct BoundsOnWriteIntegrationTests {
    static let now = "2026-03-02T09:00:00+01:00"

    /// Rewrites `"key":<number>` in the state file's world to `value`.
    static func set(_ key: String, to value: String, in path: String) throws {
        var text = try String(contentsOfFile: path, encoding: .utf8)
        let pattern = try Regex("\"\(key)\":[0-9]+")
        text.replace(pattern, with: "\"\(key)\":\(value)")
        try text.write(toFile: path, atomically: true, encoding: .utf8)
    }

    @Test("counters at 2³¹−1 plus one AddTask, MarkDone and a setting: refused, nothing changed, restarted with nothing set aside")
    func countersAtTheBound() async throws {
        let world = try await World("boundswrite")
        defer { world.close() }
        let data = world.sandbox.path("data")
        var daemon = try await world.daemon(dataDirectory: data, now: Self.now)
        var client = try world.client()
        let pending = try client.addTask("Pending", "10:00")
        #expect(await daemon.stop() == 0)
        let state = "\(data)/state.json"
        try Self.set("serial", to: "2147483647", in: state)
        try Self.set("mutations", to: "2147483647", in: state)
        let before = try Data(contentsOf: URL(fileURLWithPath: state))

        daemon = try await world.daemon(dataDirectory: data, now: Self.now)
        client = try world.client()
        #expect(try client.status()["problems"]?.unwrappingVariants.arrayValues?.isEmpty == true, "it loads")
        let add = try await world.dbusSend("AddTask", ["string:One more", "string:11:00"])
        #expect(add.status != 0)
        #expect(add.errors.contains("Error.StorageFailure") && add.errors.contains("2147483647"), "\(add)")
        let busctl = try await world.busctlCall("AddTask", ["ss", "One more", "11:00"], json: false)
        #expect(busctl.status != 0 && busctl.errors.contains("past its bound"), "\(busctl)")
        let done = try await world.dbusSend("MarkDone", ["string:\(pending)"])
        #expect(done.status != 0 && done.errors.contains("StorageFailure"), "\(done)")
        let set = try await world.busctl([
            "set-property", PetDaemon.name, PetDaemon.path, PetDaemon.interface, "Rollover", "b", "true",
        ])
        #expect(set.status != 0, "\(set)")
        let petctl = try await world.petctl(["add", "12:00", "Another"])
        #expect(petctl.status == 1 && petctl.errors.contains("2147483647"), "\(petctl)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: state)) == before, "nothing was written")
        #expect(try client.tasks().count == 1)

        #expect(await daemon.stop() == 0)
        daemon = try await world.daemon(dataDirectory: data, now: Self.now)
        client = try world.client()
        #expect(try client.status()["problems"]?.unwrappingVariants.arrayValues?.isEmpty == true)
        let names = try FileManager.default.contentsOfDirectory(atPath: data)
        #expect(!names.contains { $0.contains("corrupt") }, "\(names)")
        #expect(try client.tasks().count == 1)
        #expect(await daemon.stop() == 0)
    }

    @Test("a task for the day after 9999-12-31: InvalidArgument, nothing changed, restarted with nothing set aside")
    func lastDay() async throws {
        let world = try await World("lastday")
        defer { world.close() }
        let data = world.sandbox.path("data")
        var daemon = try await world.daemon(dataDirectory: data, now: "9999-12-31T12:00:00+01:00")
        var client = try world.client()
        #expect(try client.status().string("open_day") == "9999-12-31")
        _ = try client.addTask("Last", "13:00")
        let tomorrow = try await world.dbusSend(
            "AddTaskFor", ["string:Next", "string:09:00", "string:tomorrow", "string:"])
        #expect(tomorrow.status != 0 && tomorrow.errors.contains("Error.InvalidArgument"), "\(tomorrow)")
        let rest = try await world.busctlCall("SetRest", ["ssb", "tomorrow", "tomorrow", "true"], json: false)
        #expect(rest.status != 0, "\(rest)")
        #expect(try client.tasks("tomorrow").isEmpty)
        #expect(await daemon.stop() == 0)
        daemon = try await world.daemon(dataDirectory: data, now: "9999-12-31T12:00:00+01:00")
        client = try world.client()
        #expect(try client.status()["problems"]?.unwrappingVariants.arrayValues?.isEmpty == true)
        #expect(try client.tasks().count == 1)
        let names = try FileManager.default.contentsOfDirectory(atPath: data)
        #expect(!names.contains { $0.contains("corrupt") }, "\(names)")
        #expect(await daemon.stop() == 0)
    }
}
