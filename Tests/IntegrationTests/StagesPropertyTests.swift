import Foundation
import TestSupport
import Testing

/// The `Stages` property: the stage table the daemon runs with, read by busctl and gdbus with
/// literal names — the built-in table, a valid `stages.json`, an invalid one (never half-used) —
/// and what `petctl log` takes its stage names from.
@Suite("The Stages property")
struct StagesPropertyTests {
    static let name = "io.petprogress.PetProgress1"
    static let path = "/io/petprogress/PetProgress1"

    /// `busctl get-property --json=short`'s stages as (name, threshold, icon_name, glyph).
    static func stages(_ world: World) async throws -> [[String]] {
        let result = try await world.busctl(["--json=short", "get-property", name, path, name, "Stages"])
        #expect(result.status == 0, "\(result)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [String: Any])
        #expect(json["type"] as? String == "aa{sv}")
        let records = try #require(json["data"] as? [[String: [String: Any]]], "\(result.output)")
        return records.map { record in
            [
                record["name"]?["data"] as? String ?? "?", "\(record["threshold"]?["type"] ?? "?")",
                "\(record["threshold"]?["data"] ?? "?")", record["icon_name"]?["data"] as? String ?? "?",
                record["glyph"]?["data"] as? String ?? "?",
            ]
        }
    }

    static func writeStages(_ world: World, _ json: String) throws {
        let config = world.sandbox.path("home/.config/petprogress")
        try FileManager.default.createDirectory(atPath: config, withIntermediateDirectories: true)
        try json.write(toFile: config + "/stages.json", atomically: true, encoding: .utf8)
    }

    @Test("built in: 20 stages, Tadpole 10 to Floating God 0, with icon names and glyphs; read-only")
    func builtIn() async throws {
        let world = try await World("stages-builtin")
        defer { world.close() }
        _ = try await world.daemon(now: "2026-03-02T08:30:00+01:00")
        let stages = try await Self.stages(world)
        #expect(stages.count == 20)
        #expect(stages.first == ["Tadpole", "i", "10", "petprogress-tadpole", "🫧"])
        #expect(stages[3] == ["Hermit Crab", "i", "40", "petprogress-hermit", "🦀"])
        #expect(stages.last == ["Floating God", "i", "0", "petprogress-god", "✨"])
        let set = try await world.busctl(["set-property", Self.name, Self.path, Self.name, "Stages", "aa{sv}", "0"])
        #expect(set.status != 0 && set.errors.contains("read-only"), "\(set)")
        let gdbus = try await world.gdbusCall(
            "org.freedesktop.DBus.Properties.Get", ["\(Self.name)", "Stages"])
        #expect(gdbus.status == 0 && gdbus.output.contains("'Floating God'"), "\(gdbus)")
    }

    @Test("a valid stages.json is the table published; an invalid one publishes the built-in table")
    func customAndInvalid() async throws {
        let world = try await World("stages-custom")
        defer { world.close() }
        try Self.writeStages(
            world,
            #"{"stages":[{"i":0,"name":"Egg","threshold":4,"asset":"pet_egg.png"},{"i":1,"name":"Hen","threshold":0,"asset":"pet_hen.png"}]}"#
        )
        let daemon = try await world.daemon(now: "2026-03-02T08:30:00+01:00")
        #expect(
            try await Self.stages(world) == [
                ["Egg", "i", "4", "petprogress-egg", "🐾"], ["Hen", "i", "0", "petprogress-hen", "🐾"],
            ])
        #expect(await daemon.stop() == 0)

        try Self.writeStages(
            world, #"{"stages":[{"i":0,"name":"Egg","threshold":4,"asset":"pet_egg.png"}]}"#)
        _ = try await world.daemon(now: "2026-03-02T08:30:00+01:00")
        let stages = try await Self.stages(world)
        #expect(stages.count == 20 && stages.first?.first == "Tadpole")
    }

    @Test("petctl log names the daemon's stages, whatever stages.json petctl itself could see")
    func logUsesTheDaemonsTable() async throws {
        let world = try await World("stages-log")
        defer { world.close() }
        try Self.writeStages(
            world,
            #"{"stages":[{"i":0,"name":"Egg","threshold":4,"asset":"pet_egg.png"},{"i":1,"name":"Hen","threshold":0,"asset":"pet_hen.png"}]}"#
        )
        let data = world.sandbox.path("data")
        var daemon = try await world.daemon(dataDirectory: data, now: "2026-03-02T14:31:00+01:00")
        let client = try world.client()
        _ = try client.markDone(try client.addTask("Write report", "14:30"))
        #expect(await daemon.stop() == 0)
        daemon = try await world.daemon(dataDirectory: data, now: "2026-03-03T10:00:00+01:00")
        // petctl looks in an empty configuration directory: only the daemon knows Egg and Hen.
        let empty = world.sandbox.path("elsewhere")
        try FileManager.default.createDirectory(atPath: empty, withIntermediateDirectories: true)
        let log = try await world.petctlOK(["log"], columns: 80, environment: ["XDG_CONFIG_HOME": empty])
        #expect(log.contains("Egg") && !log.contains("Tadpole"), "\n\(log)")
        let history = try await world.petctlOK(
            ["history", "--days", "2", "--plain"], environment: ["XDG_CONFIG_HOME": empty])
        #expect(!history.contains("Tadpole"), "\n\(history)")
        _ = daemon
    }
}
