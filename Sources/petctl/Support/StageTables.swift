import FoundationEssentials
import Glibc
import LinuxKit
import PetCore
import XDG

/// The stage table petctl reasons with where the bus does not carry it (`log`'s replay, the
/// history chart, `simulate`): the built-in table or the user's `stages.json`, found and judged
/// as the daemon does (SPEC §2) — never half-used.
enum StageTables {
    /// `$XDG_CONFIG_HOME/petprogress/stages.json`, else `~/.config/petprogress/stages.json`.
    static func overridePath(environment: Environment) -> String? {
        BaseDirectories(.config) { environment[$0] }.inHome(StageTable.overrideFile)
    }

    /// The table in force, and a sentence when an override exists but cannot be used (the
    /// built-in table is used then, as the daemon does).
    static func inForce(environment: Environment = .process) -> (StageTable, problem: String?) {
        guard let path = overridePath(environment: environment), FileSystem.exists(path, followingLinks: true) else {
            return (.builtIn, nil)
        }
        do {
            return (try read(path), nil)
        } catch {
            return (.builtIn, "\(error.problem); using the built-in stages, as petprogressd does")
        }
    }

    /// The table in the file at `path`; the error names the file and the problem.
    static func read(_ path: String) throws(StageTableError) -> StageTable {
        let bytes: [UInt8]
        do {
            bytes = try contents(of: path)
        } catch {
            throw StageTableError("the stage file \(path) cannot be read (\(error.reason))")
        }
        do {
            return try StageTable.parse(json: Data(bytes))
        } catch {
            throw StageTableError("the stage file \(path) is invalid: \(error.problem)")
        }
    }

    /// A small file's bytes (at most 1 MiB: a stage table is a few kilobytes).
    private static func contents(of path: String) throws(SystemCallError) -> [UInt8] {
        let file = try FileDescriptor.open(path)
        defer { file.close() }
        return try file.readAll(limit: 1 << 20)
    }
}
