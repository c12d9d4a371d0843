import FoundationEssentials
import PetCore
import XDG

/// The optional stage-table override, `$XDG_CONFIG_HOME/petprogress/stages.json` (SPEC §2).
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

    /// The file as it is found on disk.
    static func read(_ path: String) -> StageTable.OverrideFile {
        guard FileManager.default.fileExists(atPath: path) else { return .missing }
        guard let data = FileManager.default.contents(atPath: path) else { return .unreadable(reason: "no access") }
        return .contents([UInt8](data))
    }
}
