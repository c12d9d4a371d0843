import DBusKit
import Foundation
import TestSupport
import Testing

/// The clock that went back (petprogress(7) §3.1, §5 "Restore", §6.1): the real
/// daemon's clock (`--now`, never the host's) two years ahead, then back. Ahead, the catch-up keeps
/// the state before it and charges only what the away rule charges; back, `GetStatus` says
/// `clock_behind` and nothing changes by itself; `ListGenerations` (busctl) names the snapshot,
/// `Restore` (gdbus) goes back to it, history after it set aside with the replaced data; a
/// restart finds the restored store, nothing set aside.
@Suite("the clock that went back")
struct ClockBehindTests {
    static let start = "2026-12-07T10:00:00+01:00"
    static let ahead = "2028-12-07T10:00:00+01:00"
    static let back = "2026-12-07T12:00:00+01:00"
    static let snapshot = "state-before-2026-12-07.json"

    /// `busctl --json=short` output's `data`.
    static func data(_ result: ToolResult) throws -> [Any] {
        let json = try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [String: Any]
        return try #require(json?["data"] as? [Any], "\(result)")
    }

    /// A busctl a{sv}'s member, unwrapped.
    static func member(_ record: Any, _ key: String) -> Any? {
        ((record as? [String: Any])?[key] as? [String: Any])?["data"]
    }

    @Test("two years ahead then back: clock_behind, nothing changed, restored from ListGenerations' snapshot")
    func aheadThenBack() async throws {
        let world = try await World("clockbehind")
        defer { world.close() }
        let data = world.sandbox.path("data")
        var daemon = try await world.daemon(dataDirectory: data, now: Self.start)
        var client = try world.client()
        _ = try client.addTaskFor("Stretch", "09:00", day: "", repeat: "daily")
        _ = try client.markDone(try client.addTask("Write", "11:00"))
        let petBefore = try client.pet()
        #expect(await daemon.stop() == 0)

        // Two years ahead: 731 days closed at start-up, the state before them kept.
        daemon = try await world.daemon(dataDirectory: data, now: Self.ahead)
        client = try world.client()
        var status = try client.status()
        #expect(status.string("last_closed_day") == "2028-12-06")
        #expect(status.bool("clock_behind") == false)
        #expect(FileManager.default.fileExists(atPath: "\(data)/\(Self.snapshot)"))
        // Only what the away rule charges: the open day as judged, the first untouched day, then away days.
        var to = ""
        var days: [[String: DBusValue]] = []
        for _ in 0..<100 {
            let (page, more) = try client.history("", to)
            days = page + days
            guard more, let first = page.first?.string("day_key") else { break }
            to = try #require(ImportTests.dayBefore(first))
        }
        #expect(days.count == 731)
        #expect(days.dropFirst(2).allSatisfy { $0.bool("away") == true && $0.int("xp_change") == 0 })
        #expect(days[1].bool("away") == false && (days[1].int("xp_change") ?? 0) < 0)
        #expect(await daemon.stop() == 0)

        // Back: clock_behind, naming the days and the snapshot; nothing changes by itself.
        daemon = try await world.daemon(dataDirectory: data, now: Self.back)
        client = try world.client()
        status = try client.status()
        #expect(status.bool("clock_behind") == true)
        #expect(status.string("clock_day") == "2026-12-07")
        #expect(status.string("open_day") == "2028-12-07")
        #expect(status.string("last_closed_day") == "2028-12-06")
        #expect(status.string("clock_behind_snapshot") == Self.snapshot)
        let mutations = status.int("mutations")
        let gdbusStatus = try await world.gdbusCall("GetStatus")
        #expect(gdbusStatus.output.contains("'clock_behind': <true>"), "\(gdbusStatus)")
        let today = try await world.petctlOK(["today"], columns: 80)
        #expect(today.contains("⚠ Clock behind 2028-12-07: petctl restore \(Self.snapshot)\n"), "\(today)")
        let plain = try await world.petctlOK(["today", "--plain"])
        #expect(plain.contains("The clock reads 2026-12-07, before the open day 2028-12-07"), "\(plain)")
        try await Task.sleep(for: .milliseconds(300))
        #expect(try client.status().int("mutations") == mutations, "nothing changed by itself")

        // ListGenerations names it (busctl); a dry run says what would change, changing nothing.
        let listed = try Self.data(try await world.busctlCall("ListGenerations"))
        let generations = try #require(listed.first as? [Any])
        let before = try #require(generations.first { Self.member($0, "name") as? String == Self.snapshot })
        #expect(Self.member(before, "kind") as? String == "before-catch-up")
        #expect(Self.member(before, "open_day") as? String == "2026-12-07")
        let dry = try #require(try Self.data(try await world.busctlCall("Restore", ["sb", Self.snapshot, "true"])).first)
        #expect(Self.member(dry, "restored") as? Bool == false)
        #expect(Self.member(dry, "days_set_aside") as? Int == 731)
        #expect(Self.member(dry, "first_day_set_aside") as? String == "2026-12-07")
        #expect(Self.member(dry, "last_day_set_aside") as? String == "2028-12-06")
        #expect(try client.status().string("open_day") == "2028-12-07")
        let unknown = try await world.gdbusCall("Restore", ["state-1999-01-01.json", "false"])
        #expect(unknown.status != 0 && unknown.errors.contains("Error.NotFound"), "\(unknown)")

        // Restored (gdbus): the store as it was before the jump, the two years set aside with the data.
        let restored = try await world.gdbusCall("Restore", [Self.snapshot, "false"])
        #expect(restored.status == 0, "\(restored)")
        #expect(restored.output.contains("'restored': <true>"))
        status = try client.status()
        #expect(status.string("open_day") == "2026-12-07")
        #expect(status.string("last_closed_day") == "")
        #expect(status.bool("clock_behind") == false)
        #expect(try client.history("", "").days.isEmpty)
        #expect(try client.pet() == petBefore)
        #expect(try client.tasks().count == 2)
        let names = try FileManager.default.contentsOfDirectory(atPath: data)
        #expect(!names.contains("history-2027.jsonl") && !names.contains("history-2028.jsonl"))
        let kept = try #require(names.first { $0.hasPrefix("import-backup-") })
        let keptNames = try FileManager.default.contentsOfDirectory(atPath: "\(data)/\(kept)")
        #expect(keptNames.contains("history-2028.jsonl") && keptNames.contains("state.json"), "\(keptNames)")

        // Restarted: the restored store, nothing set aside.
        #expect(await daemon.stop() == 0)
        daemon = try await world.daemon(dataDirectory: data, now: Self.back)
        client = try world.client()
        status = try client.status()
        #expect(status.string("open_day") == "2026-12-07")
        #expect(status["problems"]?.unwrappingVariants.arrayValues?.isEmpty == true)
        #expect(try client.pet() == petBefore)
        let listing = try await world.petctlOK(["generations"])
        #expect(listing.contains(Self.snapshot))
        #expect(await daemon.stop() == 0)
    }
}
