import Foundation
import PetCore
import TestSupport

/// The system's tzdata, as test input: PetCore reads no file, the tests hand it the bytes.
enum SystemZones {
    static let directory = "/usr/share/zoneinfo"
    static let tzdataPath = directory + "/tzdata.zi"

    static func bytes(_ name: String) -> [UInt8]? {
        FileManager.default.contents(atPath: name.hasPrefix("/") ? name : directory + "/" + name).map { [UInt8]($0) }
    }

    /// The zone `name` names in the system tzdata, or nil when there is no such file or it is not TZif.
    static func zone(_ name: String) -> Zone? {
        bytes(name).flatMap { try? Zone(identifier: name, tzif: $0) }
    }

    /// The `Zone` entries (`Z name …` lines) of tzdata.zi: not links, not posix/ or right/.
    static func names() throws -> [String] {
        guard let text = try? String(contentsOfFile: tzdataPath, encoding: .utf8) else {
            throw SystemZoneError("\(tzdataPath) is missing; install tzdata (make deps runs scripts/deps.sh)")
        }
        return text.split(separator: "\n").filter { $0.hasPrefix("Z ") }.compactMap {
            $0.split(separator: " ").dropFirst().first.map(String.init)
        }
    }

    /// Runs a program to completion and returns its standard output (for `zdump`, `zic`, `date`).
    static func run(_ path: String, _ arguments: [String], environment: [String: String] = Sandbox.baseEnvironment)
        throws -> String
    {
        let result = try runTool(path, arguments, environment: environment, timeout: .seconds(300))
        guard result.status == 0 else {
            throw SystemZoneError(
                "\(path) \(arguments.prefix(3)) exited \(result.status): \(result.errors.prefix(500))")
        }
        return result.output
    }
}

struct SystemZoneError: Error, CustomStringConvertible {
    let description: String
    init(_ d: String) { description = d }
}

/// Days since the epoch of the first of `month` in `year`.
func firstDay(_ year: Int, _ month: Int) -> Int { CivilDate(year: year, month: month, day: 1)?.daysSinceEpoch ?? 0 }

/// The problem TZif data has, as the reader words it, or nil when it reads.
func tzifProblem(_ bytes: [UInt8]) -> String? {
    do {
        _ = try TZif.rules(from: bytes)
        return nil
    } catch {
        return error.message
    }
}
