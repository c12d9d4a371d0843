import FoundationEssentials
import Glibc
import LinuxKit
import PetCore
import XDG

/// Finds the installed 512×512 PNG of each stage (`icons/hicolor/512x512/apps/petprogress-<base>.png`)
/// once, at start-up, so building an entry never touches the disk.
public struct IconLocator: Sendable {
    private let paths: [String: String]

    /// Looks in `$XDG_DATA_HOME`, `$XDG_DATA_DIRS` and the `share/` beside the executable's prefix.
    public init(stages: StageTable, environment: [String: String], executable: String) {
        let apps = "icons/hicolor/512x512/apps"
        let prefix = URL(fileURLWithPath: executable).deletingLastPathComponent().deletingLastPathComponent().path
        let dirs = BaseDirectories(.data) { environment[$0] }.searchPaths(apps) + [prefix + "/share/" + apps]
        // Each directory is listed once and only the names it holds are checked, instead of a
        // stat per stage and directory (20 stages × 4 directories, nearly all missing, at every
        // start: docs/BENCHMARKS.md, "Lean III"). A directory that cannot be listed is asked name
        // by name, as before.
        var found: [String: String] = [:]
        for dir in dirs {
            var names: Set<String>? = []
            do {
                try FileSystem.forEachName(in: dir) { name in
                    guard name.starts(with: "petprogress-".utf8) else { return }
                    names?.insert(String(decoding: name, as: UTF8.self))
                }
            } catch {
                names = error.errno == ENOENT || error.errno == ENOTDIR ? [] : nil
            }
            for stage in stages.stages where found[stage.base] == nil {
                let file = "\(stage.iconName).png"
                guard names?.contains(file) ?? true else { continue }
                let path = "\(dir)/\(file)"
                if FileSystem.exists(path, followingLinks: true) { found[stage.base] = path }
            }
        }
        paths = found
    }

    /// The absolute PNG path of a stage's icon, or "" when it is not installed.
    public func path(for stage: Stage) -> String { paths[stage.base] ?? "" }
}
