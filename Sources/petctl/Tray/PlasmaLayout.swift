import Glibc
import LinuxKit
import XDG

/// Whether the Plasma widget (`contrib/plasma`, `io.petprogress.plasmoid`) sits in a panel of the
/// user's Plasma (petprogress(7) §8: one pet per session). Plasma keeps its layout in
/// `$XDG_CONFIG_HOME/plasma-org.kde.plasma.desktop-appletsrc`: each containment (a panel, a desktop,
/// the system tray inside a panel) is a group `[Containments][N]` with its `plugin=`, each widget
/// a group `[Containments][N][Applets][M]` with its own. plasmashell rewrites the file (a new file
/// renamed into place) whenever the layout changes, so the tray watches the directory for it.
enum PlasmaLayout {
    static let fileName = "plasma-org.kde.plasma.desktop-appletsrc"
    static let widget = "io.petprogress.plasmoid"
    /// Containments that sit in a panel: panels, and the system tray (whose widgets show in one).
    static let panelContainments: Set<Substring> = ["org.kde.panel", "org.kde.plasma.private.systemtray"]
    /// A layout is a few kilobytes; a larger file is not plasmashell's, and is not read.
    static let sizeLimit = 4 << 20

    /// The layout file for this environment, or nil without a configuration directory.
    static func path(environment: ProcessEnvironment) -> String? {
        BaseDirectories(.config) { environment[$0] }.inHome(fileName)
    }

    /// The session is Plasma's (`XDG_CURRENT_DESKTOP` names KDE): a layout left from another
    /// session's Plasma says nothing about this one's panels.
    static func isPlasmaSession(environment: ProcessEnvironment) -> Bool {
        (environment["XDG_CURRENT_DESKTOP"] ?? "").split(separator: ":").contains("KDE")
    }

    /// The layout's text puts the widget in a panel (or in the system tray).
    static func widgetInPanel(_ text: Substring) -> Bool {
        var containmentPlugin: [Substring: Substring] = [:]
        var holding: [Substring] = []
        var group: [Substring] = []
        for line in text.split(whereSeparator: \.isNewline) {
            if line.hasPrefix("[") {
                group = groupNames(line)
                continue
            }
            guard line.hasPrefix("plugin="), group.first == "Containments" else { continue }
            let plugin = line.dropFirst("plugin=".count)
            if group.count == 2 {
                containmentPlugin[group[1]] = plugin
            } else if group.count == 4, group[2] == "Applets", plugin == widget {
                holding.append(group[1])
            }
        }
        return holding.contains { containmentPlugin[$0].map(panelContainments.contains) == true }
    }

    /// `[Containments][1][Applets][5]` → Containments, 1, Applets, 5.
    static func groupNames(_ line: Substring) -> [Substring] {
        line.split(separator: "]").compactMap { part in
            part.hasPrefix("[") ? part.dropFirst() : nil
        }
    }

    /// Reads the layout at `path`: false when it is missing, unreadable, not a regular file or too large.
    static func widgetInPanel(path: String) -> Bool {
        do {
            let file = try FileDescriptor.open(path, .nonBlocking)
            defer { file.close() }
            guard try file.status().isRegularFile else { return false }
            let bytes = try file.readAll(limit: sizeLimit)
            return widgetInPanel(Substring(String(decoding: bytes, as: UTF8.self)))
        } catch {
            return false
        }
    }
}

/// An inotify watch on the directory of Plasma's layout file: readable whenever something in it
/// changed; ``drain()`` says whether the layout was among it.
final class PlasmaLayoutWatch {
    private let inotify: Inotify
    let path: String
    private let name: String

    var fd: Int32 { inotify.fd }

    /// Watches the directory of `path`; nil when it does not exist or inotify is refused (the tray
    /// then reads the layout once, at start).
    init?(path: String) {
        guard let slash = path.lastIndex(of: "/"), slash != path.startIndex else { return nil }
        self.path = path
        name = String(path[path.index(after: slash)...])
        guard let inotify = try? Inotify(),
            (try? inotify.addWatch(
                String(path[..<slash]), mask: UInt32(IN_CLOSE_WRITE | IN_MOVED_TO | IN_DELETE | IN_MOVED_FROM | IN_CREATE)))
                != nil
        else { return nil }
        self.inotify = inotify
    }

    /// Drains pending events; true if any concerned the layout file.
    func drain() -> Bool {
        inotify.read().contains { $0.name == name }
    }
}
