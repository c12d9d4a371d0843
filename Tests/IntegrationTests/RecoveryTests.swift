import DBusKit
import Foundation
import TestSupport
import Testing

/// A destroyed `state.json` (petprogress(7) §5): the real daemon restarts from the newest snapshot,
/// or with none from the pet history recorded, says so in `GetStatus`, and `petctl today` shows
/// one line about it until `AcknowledgeProblems`, after a restart too.
@Suite("Recovery")
struct RecoveryTests {
    /// Three days of use (2–4 March 2026), a closeout at each start; returns the live pet and the
    /// status on 4 March, where the daemon is left stopped.
    static func keepAPet(_ world: World, _ data: String) async throws -> (pet: [String: DBusValue], lastClosed: String)
    {
        for (n, day) in ["2026-03-02", "2026-03-03", "2026-03-04"].enumerated() {
            let daemon = try await world.daemon(dataDirectory: data, now: "\(day)T08:30:00+01:00")
            let client = try world.client()
            if n < 2 {
                for time in ["08:00", "08:15", "08:30"] {
                    _ = try client.markDone(try client.addTask("Task \(time)", time))
                }
            } else {
                try client.setProperty("GraceMinutes", .uint32(30))
            }
            let pet = try client.pet()
            let lastClosed = try client.status().string("last_closed_day") ?? ""
            #expect(await daemon.stop() == 0)
            if n == 2 { return (pet, lastClosed) }
        }
        fatalError("unreachable")
    }

    static func destroy(_ path: String) throws {
        try Data("{\"schema\":2,\"wor".utf8).write(to: URL(fileURLWithPath: path))
    }

    @Test(
        "a destroyed state.json: the pet from the newest snapshot, the recovery in GetStatus, one line in petctl today until acknowledged"
    )
    func fromTheSnapshot() async throws {
        let world = try await World("recover-snapshot")
        defer { world.close() }
        let data = world.sandbox.path("data")
        let (pet, lastClosed) = try await Self.keepAPet(world, data)
        #expect(lastClosed == "2026-03-03")
        #expect(pet.int("stage_index") == 1, "the pet grew: \(pet)")
        let snapshots = try FileManager.default.contentsOfDirectory(atPath: data).filter { $0.hasPrefix("state-") }
        #expect(snapshots.sorted() == ["state-2026-03-02.json", "state-2026-03-03.json"])
        try Self.destroy(data + "/state.json")

        var daemon = try await world.daemon(dataDirectory: data, now: "2026-03-04T09:00:00+01:00")
        let busctlPet = try await world.busctlCall("GetPet", json: false)
        #expect(busctlPet.output.contains("\"stage_index\" i \(pet.int("stage_index") ?? -1)"), "\(busctlPet)")
        #expect(busctlPet.output.contains("\"stage_xp\" i \(pet.int("stage_xp") ?? -1)"), "\(busctlPet)")
        let status = try await world.gdbusCall("GetStatus")
        #expect(status.output.contains("'recovery_source': <'snapshot'>"), "\(status)")
        #expect(status.output.contains("'recovery_day': <'2026-03-03'>"), "\(status)")
        #expect(status.output.contains("'recovery_lost': <'changes since the closeout of 2026-03-03'>"), "\(status)")
        #expect(status.output.contains("'problems_acknowledged': <false>"), "\(status)")
        #expect(status.output.contains("'last_closed_day': <'2026-03-03'>"), "\(status)")
        #expect(try world.client().property("GraceMinutes").uint32Value == 60, "the change after the closeout is lost")

        let before = try await world.petctl(["today"], columns: 200)
        #expect(before.status == 0)
        let notice = before.output.split(separator: "\n").filter { $0.contains("closeout of 2026-03-03") }
        #expect(notice.count == 1, "one line: \(before.output)")
        #expect(before.output.hasPrefix("⚠"), "\(before.output)")
        let narrow = try await world.petctl(["today"], columns: 80)
        #expect(
            narrow.output.split(separator: "\n").first?.hasSuffix("(closeout of 2026-03-03) · petctl status --ack")
                == true,
            "the hint fits 80 columns: \(narrow.output)")

        let ack = try await world.dbusSend("AcknowledgeProblems")
        #expect(ack.status == 0, "\(ack)")
        let after = try await world.petctl(["today"], columns: 200)
        #expect(!after.output.contains("closeout of 2026-03-03"), "\(after.output)")
        let acknowledged = try await world.gdbusCall("GetStatus")
        #expect(acknowledged.output.contains("'problems_acknowledged': <true>"), "\(acknowledged)")
        #expect(acknowledged.output.contains("could not be read"), "the problem stays listed: \(acknowledged)")
        #expect(await daemon.stop() == 0)

        daemon = try await world.daemon(dataDirectory: data, now: "2026-03-04T10:00:00+01:00")
        let restarted = try await world.petctl(["today"], columns: 200)
        #expect(restarted.status == 0 && !restarted.output.contains("⚠"), "\(restarted.output)")
        let kept = try await world.gdbusCall("GetStatus")
        #expect(kept.output.contains("'problems_acknowledged': <true>"), "\(kept)")
        #expect(kept.output.contains("'recovery_source': <'snapshot'>"), "\(kept)")
        #expect(await daemon.stop() == 0)
    }

    @Test("a destroyed state.json and no snapshot: the pet history recorded at the last close, default settings")
    func fromHistory() async throws {
        let world = try await World("recover-history")
        defer { world.close() }
        let data = world.sandbox.path("data")
        let (pet, _) = try await Self.keepAPet(world, data)
        for name in try FileManager.default.contentsOfDirectory(atPath: data) where name.hasPrefix("state-") {
            try FileManager.default.removeItem(atPath: data + "/" + name)
        }
        try Self.destroy(data + "/state.json")

        let daemon = try await world.daemon(dataDirectory: data, now: "2026-03-04T09:00:00+01:00")
        let busctlPet = try await world.busctlCall("GetPet", json: false)
        #expect(busctlPet.output.contains("\"stage_index\" i \(pet.int("stage_index") ?? -1)"), "\(busctlPet)")
        #expect(busctlPet.output.contains("\"stage_xp\" i \(pet.int("stage_xp") ?? -1)"), "\(busctlPet)")
        let status = try await world.gdbusCall("GetStatus")
        #expect(status.output.contains("'recovery_source': <'history'>"), "\(status)")
        #expect(status.output.contains("'recovery_day': <'2026-03-03'>"), "\(status)")
        #expect(status.output.contains("'last_closed_day': <'2026-03-03'>"), "\(status)")
        let history = try world.client().history()
        #expect(history.days.map { $0.string("day_key") } == ["2026-03-02", "2026-03-03"], "history is kept")
        let today = try await world.petctl(["today", "--plain"], columns: 200)
        #expect(
            today.output.hasPrefix("The state file could not be used; Pet Progress rebuilt the pet"), "\(today.output)")
        let status2 = try await world.petctl(["status", "--ack"])
        #expect(status2.status == 0 && status2.output.contains("(acknowledged)"), "\(status2)")
        let quiet = try await world.petctl(["today", "--plain"], columns: 200)
        #expect(!quiet.output.contains("could not be used"), "\(quiet.output)")
        #expect(await daemon.stop() == 0)
    }
}
