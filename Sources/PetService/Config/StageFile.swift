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
    /// most 1 MiB: a stage table is a few kilobytes).
    static func read(_ path: String) -> StageTable.OverrideFile {
        do {
            // A FIFO would wait for a writer at the open: opened without waiting, then refused.
            let file = try FileDescriptor.open(path, .nonBlocking)
            defer { file.close() }
            let status = try file.status()
            guard status.isRegularFile else { return .unreadable(reason: "it is \(status.kind), not a regular file") }
            return .contents(try file.readAll(limit: 1 << 20))
        } catch {
            return error.errno == ENOENT ? .missing : .unreadable(reason: error.reason)
        }
    }
}
