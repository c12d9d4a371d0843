import Foundation
import PetCore

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
    static func run(_ path: String, _ arguments: [String], environment: [String: String]? = nil) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        if let environment { process.environment = environment }
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        // Drain stderr on the side so a chatty program cannot fill its pipe and stall.
        let errors = ErrorText()
        let drain = Thread { errors.set(err.fileHandleForReading.readDataToEndOfFile()) }
        drain.start()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        while !errors.done { usleep(1000) }
        guard process.terminationStatus == 0 else {
            throw SystemZoneError("\(path) \(arguments.prefix(3)) exited \(process.terminationStatus): \(errors.text)")
        }
        return String(decoding: data, as: UTF8.self)
    }
}

/// What a program wrote to stderr, handed over from the draining thread.
final class ErrorText: @unchecked Sendable {
    private let lock = NSLock()
    private var data: Data?
    func set(_ d: Data) { lock.withLock { data = d } }
    var done: Bool { lock.withLock { data != nil } }
    var text: String { lock.withLock { String(decoding: (data ?? Data()).prefix(500), as: UTF8.self) } }
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
