import FoundationEssentials
import PetCore

/// Finds the installed 512×512 PNG of each stage (`icons/hicolor/512x512/apps/petprogress-<base>.png`)
/// once, at start-up, so building an entry never touches the disk.
public struct IconLocator: Sendable {
    private let paths: [String: String]

    /// Looks in `$XDG_DATA_HOME`, `$XDG_DATA_DIRS` and the `share/` beside the executable's prefix.
    public init(stages: StageTable, environment: [String: String], executable: String) {
        var dirs: [String] = []
        if let xdg = environment["XDG_DATA_HOME"], xdg.hasPrefix("/") {
            dirs.append(xdg)
        } else if let home = environment["HOME"], home.hasPrefix("/") {
            dirs.append(home + "/.local/share")
        }
        let system = environment["XDG_DATA_DIRS"].flatMap { $0.isEmpty ? nil : $0 } ?? "/usr/local/share:/usr/share"
        dirs += system.split(separator: ":").map(String.init).filter { $0.hasPrefix("/") }
        dirs.append(
            URL(fileURLWithPath: executable).deletingLastPathComponent().deletingLastPathComponent().path + "/share")
        var found: [String: String] = [:]
        for stage in stages.stages {
            found[stage.base] = dirs.lazy
                .map { "\($0)/icons/hicolor/512x512/apps/\(stage.iconName).png" }
                .first { FileManager.default.fileExists(atPath: $0) }
        }
        paths = found
    }

    /// The absolute PNG path of a stage's icon, or "" when it is not installed.
    public func path(for stage: Stage) -> String { paths[stage.base] ?? "" }
}
