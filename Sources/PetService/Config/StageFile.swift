import Glibc
import LinuxKit
import PetCore
import XDG

/// The optional stage-table override, `$XDG_CONFIG_HOME/petprogress/stages.json` (petprogress(7) §2).
public enum StageFile {
    /// Where the override lives for this environment, or nil without `XDG_CONFIG_HOME` and `HOME`.
    public static func path(environment: [String: String]) -> String? {
        BaseDirectories(.config) { environment[$0] }.inHome(StageTable.overrideFile)
    }

    /// The table in force and, when the file exists but cannot be used, the problem sentence
    /// (PetCore's one loader; only the reading is here).
    public static func load(path: String?) -> (table: StageTable, problem: String?) {
        guard let path else { return (.builtIn, nil) }
        return StageTable.inForce(read(path), path: path)
    }

    /// The file as it is found on disk: missing, unreadable (with the reason), or its bytes (at
    /// most `StageTable.overrideLimit`). Through LinuxKit's one small-file read: no wait on a FIFO,
    /// a regular file of ours; a link is followed (dotfile managers link configuration in place).
    static func read(_ path: String) -> StageTable.OverrideFile {
        do throws(SmallFile.Failure) {
            return .contents(try SmallFile.read(path, limit: StageTable.overrideLimit, links: .followed))
        } catch {
            return error == .missing ? .missing : .unreadable(reason: error.description)
        }
    }
}
