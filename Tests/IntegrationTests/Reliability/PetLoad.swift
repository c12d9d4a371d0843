import Foundation
import TestSupport

/// The `petload` client (Tests/Executables/petload): black-box load with an oracle, run as its
/// own process so its 16 client threads never share the test's pool. Its report is JSON.
enum PetLoad {
    /// The run's day: Monday 2 March 2026 in Berlin, no DST change; the daemon starts at 00:05.
    static let day = "2026-03-02"
    static let now = "2026-03-02T00:05:00+01:00"
    static var dayArguments: [String] {
        [
            "--day", day, "--day-start", String(unix("2026-03-02T00:00:00+01:00")),
            "--day-end", String(unix("2026-03-03T00:00:00+01:00")),
        ]
    }

    static func binary() throws -> String { try productBinary("petload", override: "PETLOAD") }

    /// Starts `petload` with `arguments` on the world's bus.
    static func start(_ world: World, _ arguments: [String]) throws -> Spawned {
        try world.sandbox.spawn(
            try binary(), arguments + ["--address", world.bus.address] + dayArguments,
            environment: Sandbox.baseEnvironment, label: "petload")
    }

    /// Waits for `process` and returns its report.
    static func report(_ process: Spawned, timeout: Duration) async throws -> [String: Any] {
        guard let status = await process.waitExit(timeout: timeout) else {
            process.killNow()
            throw HarnessError("petload did not finish within \(timeout)")
        }
        guard let data = process.output.data(using: .utf8),
            let report = try? JSONSerialization.jsonObject(with: data) as? [String: Any]
        else { throw HarnessError("petload exited \(status) without a report: \(process.errors.prefix(4000))") }
        return report
    }
}

extension Dictionary where Key == String, Value == Any {
    /// A nested number, e.g. `number("rounds", "read", "median")`.
    func number(_ path: String...) -> Double {
        var node: Any? = self
        for key in path { node = (node as? [String: Any])?[key] }
        return (node as? NSNumber)?.doubleValue ?? .nan
    }

    var failures: [String] { self["failures"] as? [String] ?? [] }
}
