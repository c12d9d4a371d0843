import Foundation
import TestSupport
import Testing

/// A state file holding a value out of bounds, on the real daemon (petprogress(7) §5): each of the
/// values that once crashed or spun it is damage now. The daemon starts, sets the file aside
/// with a problem naming the key, and answers `GetWidgetEntry` from busctl without spinning.
@Suite("Values out of bounds on load")
struct BoundsOnLoadTests {
    static let attacks: [String: (golden: String, damaged: String)] = [
        "serial": (#""serial":17"#, #""serial":18446744073709551615"#),
        "mutations": (#""mutations":33"#, #""mutations":18446744073709551615"#),
        "graceMinutes": (#""graceMinutes":45"#, #""graceMinutes":9223372036854775807"#),
        "start": (#""start":1773023400"#, #""start":-9223372036854775808"#),
        "stageXP": (#""stageXP":4"#, #""stageXP":9223372036854775807"#),
        "end": (#""end":1773109800"#, #""end":9223372036854775807"#),
    ]

    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("PetStoreTests/Fixtures/schema2").path

    /// User and system CPU time of a process, in clock ticks.
    static func cpuTicks(_ pid: pid_t) -> Int? {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let close = stat.lastIndex(of: ")")
        else { return nil }
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        // After the command: state is field 3, utime 14 and stime 15.
        guard fields.count > 12, let user = Int(fields[11]), let system = Int(fields[12]) else { return nil }
        return user + system
    }

    @Test(arguments: attacks.keys.sorted()) func theDaemonSetsTheFileAsideAndAnswers(key: String) async throws {
        let attack = try #require(Self.attacks[key])
        let world = try await World("bounds-\(key)")
        defer { world.close() }
        let data = world.sandbox.path("data")
        try FileManager.default.createDirectory(
            atPath: data, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let golden = try String(contentsOfFile: Self.fixtures + "/state.json", encoding: .utf8)
        #expect(golden.components(separatedBy: attack.golden).count == 2)
        let damaged = golden.replacingOccurrences(of: attack.golden, with: attack.damaged)
        try damaged.write(toFile: data + "/state.json", atomically: true, encoding: .utf8)
        try FileManager.default.copyItem(
            atPath: Self.fixtures + "/history-2026.jsonl", toPath: data + "/history-2026.jsonl")

        let daemon = try await world.daemon(dataDirectory: data, now: "2026-03-09T12:00:00+01:00")
        let entry = try await world.busctlCall("GetWidgetEntry")
        #expect(entry.status == 0, "\(entry)")
        #expect(entry.output.contains("day_key"), "\(entry)")

        let aside = try FileManager.default.contentsOfDirectory(atPath: data).filter {
            $0.hasPrefix("state.json.corrupt-")
        }
        #expect(aside.count == 1)
        if let name = aside.first {
            #expect(try String(contentsOfFile: data + "/" + name, encoding: .utf8) == damaged)
        }
        let problems = try #require(try world.client().status()["problems"]?.arrayValues?.compactMap(\.stringValue))
        #expect(problems.contains { $0.contains("state.json") && $0.contains(key) }, "\(problems)")

        // Idle once it has answered: no loop left running on the damaged values.
        let before = try #require(Self.cpuTicks(daemon.process.pid))
        try await Task.sleep(for: .seconds(1))
        let after = try #require(Self.cpuTicks(daemon.process.pid))
        #expect(after - before < 30, "\(after - before) ticks of CPU in an idle second")
        #expect(daemon.process.isRunning)
        #expect(try await world.busctlCall("GetWidgetEntry").status == 0)
    }
}
