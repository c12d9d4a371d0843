import FoundationEssentials
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
        var found: [String: String] = [:]
        for stage in stages.stages {
            found[stage.base] = dirs.lazy
                .map { "\($0)/\(stage.iconName).png" }
                .first { FileSystem.exists($0, followingLinks: true) }
        }
        paths = found
    }

    /// The absolute PNG path of a stage's icon, or "" when it is not installed.
    public func path(for stage: Stage) -> String { paths[stage.base] ?? "" }
}
