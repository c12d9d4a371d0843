import DBusKit
import Foundation
import TestSupport
import Testing

/// What the daemon finds on disk at start-up: a stage-table override (valid or not), a corrupt or
/// newer state file, installed icons, and a `--now` before the stored data (petprogress(7) §2, §3, §5, §9).
@Suite("Start-up configuration")
struct ConfigurationTests {
    static func write(_ text: String, to path: String) throws {
        try FileManager.default.createDirectory(
            atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try text.write(toFile: path, atomically: true, encoding: .utf8)
    }

    @Test("a valid stages.json replaces the table: names, thresholds, stage_count, evolution")
    func stageOverride() async throws {
        let world = try await World("stages")
        defer { world.close() }
        try Self.write(
            """
            {"stages":[{"i":0,"name":"Egg","threshold":4,"asset":"pet_egg.png"},
                       {"i":1,"name":"Chick","threshold":6,"asset":"pet_chick.png"},
                       {"i":2,"name":"Hen","threshold":0,"asset":"pet_hen.png"}]}
            """, to: world.sandbox.path("home/.config/petprogress/stages.json"))
        _ = try await world.daemon(now: "2026-03-02T08:30:00+01:00")
        let client = try world.client()
        var pet = try client.pet()
        #expect(pet.int("stage_count") == 3)
        #expect(pet.string("stage_name") == "Egg")
        #expect(pet.int("threshold") == 4)
        for time in ["08:00", "08:10"] { _ = try client.markDone(try client.addTask("T", time)) }
        pet = try client.pet()
        #expect(pet.string("stage_name") == "Chick")
        #expect(pet.int("stage_index") == 1)
        #expect(try client.status()["problems"] == .array(elementSignature: "s", []))
    }

    @Test(
        "an invalid stages.json is never half-used: built-in table, one log line and a GetStatus problem naming the file"
    )
    func invalidStageFile() async throws {
        let world = try await World("badstages")
        defer { world.close() }
        let path = world.sandbox.path("home/.config/petprogress/stages.json")
        try Self.write(
            """
            {"stages":[{"i":0,"name":"Egg","threshold":4,"asset":"a.png"},{"i":1,"name":"Hen","threshold":7,"asset":"b.png"}]}
            """, to: path)
        let daemon = try await world.daemon(now: "2026-03-02T08:30:00+01:00")
        let client = try world.client()
        let pet = try client.pet()
        #expect(pet.int("stage_count") == 20)
        #expect(pet.string("stage_name") == "Tadpole")
        let problems = try #require(try client.status()["problems"]?.arrayValues?.compactMap(\.stringValue))
        #expect(problems.count == 1)
        #expect(problems.first?.contains(path) == true, "\(problems)")
        #expect(
            daemon.process.errors.split(separator: "\n").filter { $0.contains(path) }.count == 1,
            "\(daemon.process.errors)")
    }

    @Test("an unparsable state.json is set aside byte for byte, reported, and the daemon starts empty")
    func corruptState() async throws {
        let world = try await World("corrupt")
        defer { world.close() }
        let data = world.sandbox.path("data")
        try FileManager.default.createDirectory(
            atPath: data, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let garbage = "{\"schema\":1,\"world\":{ this is not json \u{1}"
        try Self.write(garbage, to: data + "/state.json")
        let daemon = try await world.daemon(dataDirectory: data, now: "2026-03-02T08:30:00+01:00")
        let client = try world.client()
        #expect(try client.tasks().isEmpty)
        #expect(try client.status().string("open_day") == "2026-03-02")
        let problems = try #require(try client.status()["problems"]?.arrayValues?.compactMap(\.stringValue))
        #expect(problems.count == 1)
        let aside = try FileManager.default.contentsOfDirectory(atPath: data).filter {
            $0.hasPrefix("state.json.corrupt-")
        }
        #expect(aside.count == 1)
        if let name = aside.first {
            #expect(try String(contentsOfFile: data + "/" + name, encoding: .utf8) == garbage)
            #expect(problems.first?.contains(name) == true, "\(problems)")
            #expect(daemon.process.errors.contains(name), "the log names the path")
        }
        _ = try client.addTask("Fresh start", "09:00")
        #expect(try client.status().int("mutations") == 1)
    }

    @Test("a state.json from a newer schema is refused with a clear message, exit 1, touching nothing")
    func newerSchema() async throws {
        let world = try await World("newer")
        defer { world.close() }
        let data = world.sandbox.path("data")
        try FileManager.default.createDirectory(
            atPath: data, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let future = "{\"schema\":99,\"world\":{\"from\":\"the future\"}}\n"
        try Self.write(future, to: data + "/state.json")
        let before = try FileManager.default.contentsOfDirectory(atPath: data).sorted()
        let daemon = try await world.daemon(dataDirectory: data, now: "2026-03-02T08:30:00+01:00", waitForName: false)
        #expect(await daemon.process.waitExit(timeout: .seconds(15)) == 1)
        let lines = daemon.process.errors.split(separator: "\n")
        #expect(lines.count == 1, "\(daemon.process.errors)")
        #expect(lines.first?.contains("newer") == true)
        #expect(try String(contentsOfFile: data + "/state.json", encoding: .utf8) == future)
        #expect(try FileManager.default.contentsOfDirectory(atPath: data).sorted().filter { $0 != ".lock" } == before)
    }

    @Test("icon_path is the installed 512×512 PNG when there is one, else empty")
    func iconPath() async throws {
        let world = try await World("icons")
        defer { world.close() }
        let png = world.sandbox.path("home/share/icons/hicolor/512x512/apps/petprogress-tadpole.png")
        try Self.write("not really a png", to: png)
        _ = try await world.daemon(now: "2026-03-02T08:30:00+01:00")
        let client = try world.client()
        #expect(try client.pet().string("icon_path") == png)
        #expect(try client.entry().string("icon_path") == png)
        #expect(try client.pet().string("icon_name") == "petprogress-tadpole")
    }

    @Test(
        "a --now before the stored data: the open day stays open, the snapshot never goes back, the next later tick emits"
    )
    func backwardStart() async throws {
        let world = try await World("backward")
        defer { world.close() }
        let recorder = try SignalRecorder(bus: world.bus)
        defer { recorder.stop() }
        let data = world.sandbox.path("data")
        let daemon = try await world.daemon(dataDirectory: data, now: "2026-03-02T10:30:00+01:00")
        let client = try world.client()
        _ = try client.markDone(try client.addTask("Ten", "10:00"))
        #expect(await daemon.stop() == 0)
        // Started at 09:15, 1200×: 10:00 is not later than the 10:00 snapshot; 11:00 is the next tick.
        // Started and read off the pool: the reads must land before 11:00 on the simulated clock.
        let (status, tasks, entry) = try await offPool { [world] in
            _ = try PetDaemon(
                sandbox: world.sandbox, bus: world.bus, dataDirectory: data,
                now: "2026-03-02T09:15:00+01:00", timeScale: 1200)
            let client = try world.client()
            return (try client.status(), try client.tasks(), try client.entry())
        }
        #expect(status.string("open_day") == "2026-03-02")
        #expect(tasks.count == 1)
        #expect(entry.int("date") == unix("2026-03-02T10:00:00+01:00"), "the snapshot does not go back to 09:00")
        #expect(await recorder.wait(timeout: .seconds(30)) { $0.contains { $0.member == "EntryChanged" } })
        let dates = recorder.signals("EntryChanged").compactMap { $0.entry.int("date") }
        #expect(dates.first == unix("2026-03-02T11:00:00+01:00"), "no EntryChanged at start-up or for 10:00: \(dates)")
        #expect(recorder.signals("EntryChanged").first?.entry.int("stage_xp") == 2)
    }
}
