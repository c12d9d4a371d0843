import Glibc
import LinuxKit
import PetCore
import XDG

/// The stage table `petctl simulate` runs with offline, where the bus does not carry it: the
/// user's `stages.json` judged by PetCore's loader, as the daemon judges it. Only the reading is
/// here.
enum StageTables {
    /// `$XDG_CONFIG_HOME/petprogress/stages.json`, else `~/.config/petprogress/stages.json`.
    static func overridePath(environment: ProcessEnvironment) -> String? {
        BaseDirectories(.config) { environment[$0] }.inHome(StageTable.overrideFile)
    }

    /// The table in force, and a sentence when an override exists but cannot be used (the
    /// built-in table is used then, as the daemon does).
    static func inForce(environment: ProcessEnvironment = .process) -> (StageTable, problem: String?) {
        guard let path = overridePath(environment: environment) else { return (.builtIn, nil) }
        return StageTable.inForce(file(path), path: path)
    }

    /// The table in the file at `path`; the error names the file and the problem.
    static func read(_ path: String) throws(StageTableError) -> StageTable {
        try StageTable.load(file(path), path: path)
    }

    /// The file as it is found on disk: missing, unreadable (with the reason), or its bytes, read
    /// as the daemon reads it (PetService's `StageFile`: LinuxKit's one small-file read, a link
    /// followed).
    private static func file(_ path: String) -> StageTable.OverrideFile {
        do throws(SmallFile.Failure) {
            return .contents(try SmallFile.read(path, limit: StageTable.overrideLimit, links: .followed))
        } catch {
            switch error {
            case .missing: return .missing
            case .notRegular(let kind): return .unreadable(reason: tr("it is %s, not a regular file", kind))
            default: return .unreadable(reason: error.description)
            }
        }
    }
}
