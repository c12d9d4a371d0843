import FoundationEssentials
import LinuxKit
import PetCore
import XDG

/// The optional stage-table override, `$XDG_CONFIG_HOME/petprogress/stages.json` (SPEC §2).
public enum StageFile {
    /// Where the override lives for this environment, or nil without `XDG_CONFIG_HOME` and `HOME`.
    public static func path(environment: [String: String]) -> String? {
        BaseDirectories(.config) { environment[$0] }.inHome(StageTable.overrideFile)
    }

    /// The table in force and, when the file exists but cannot be used, the problem sentence.
    /// An invalid file is never half-used: the built-in table stays.
    public static func load(path: String?) -> (table: StageTable, problem: String?) {
        guard let path, FileSystem.exists(path, followingLinks: true) else { return (.builtIn, nil) }
        guard let data = try? contents(of: path) else {
            return (.builtIn, "The stage file \(path) could not be read; using the built-in stages.")
        }
        do {
            return (try StageTable.parse(json: data), nil)
        } catch {
            return (.builtIn, "The stage file \(path) is invalid (\(error.problem)); using the built-in stages.")
        }
    }

    /// The whole file, however long, as Foundation's `contents(atPath:)` read it.
    private static func contents(of path: String) throws(SystemCallError) -> Data {
        let file = try FileDescriptor.open(path)
        defer { file.close() }
        return Data(try file.readAll(limit: .max))
    }
}
