import Foundation
import TestSupport

/// Fast or full sizes for the reliability tests, and the report fragments of a full run.
///
/// `make test` runs the fast sizes. `make reliability` (scripts/reliability.sh) sets
/// `PETPROGRESS_RELIABILITY=full`; each test then runs at full size and writes a markdown fragment
/// into `PETPROGRESS_RELIABILITY_OUT` (default `.build/reliability`), which the script assembles
/// into docs/RELIABILITY.md.
enum ReliabilityRun {
    static var isFull: Bool { ProcessInfo.processInfo.environment["PETPROGRESS_RELIABILITY"] == "full" }

    /// `fast` in `make test`, `full` under `make reliability`.
    static func size<T>(fast: T, full: T) -> T { isFull ? full : fast }

    /// Writes `markdown` as the fragment `name` (e.g. `10-load`) in a full run; nothing otherwise.
    static func fragment(_ name: String, _ markdown: String) throws {
        guard isFull else { return }
        let directory = ProcessInfo.processInfo.environment["PETPROGRESS_RELIABILITY_OUT"] ?? ".build/reliability"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        try markdown.write(toFile: "\(directory)/\(name).md", atomically: true, encoding: .utf8)
    }

    /// The daemon binary's description for the report: which build ran.
    static var daemonBuild: String { build((try? PetDaemon.binary()) ?? "?") }

    /// The same for `petctl` (`PETCTL`, else the debug build).
    static var petctlBuild: String { build((try? productBinary("petctl", override: "PETCTL")) ?? "?") }

    private static func build(_ path: String) -> String {
        path.contains("release") ? "the shipped release build" : "the debug build (\(path))"
    }

    /// A duration in whole seconds, as a person reads it ("344 s").
    static func seconds(_ duration: Duration) -> String {
        "\(format(Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18, 0)) s"
    }

    /// A number with `digits` decimals.
    static func format(_ value: Double, _ digits: Int = 1) -> String { String(format: "%.\(digits)f", value) }
}
