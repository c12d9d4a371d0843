import ArgumentParser
import Glibc
import LinuxKit

/// `petctl tray`: the pet as a StatusNotifierItem with a menu, for every panel that hosts tray
/// items (petprogress(7) §8).
struct Tray: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tray",
        abstract: tr("Show the pet in the system tray (a StatusNotifierItem with a menu) until stopped."),
        discussion: tr(
            """
            The icon and the pet line change at the top of each hour; the counts, the label beside \
            the icon and the menu's tasks follow every change at once. A left click opens Today; the \
            menu has Done and Snooze for the next three tasks, Undo and Open Today. While petprogressd \
            is not running the pet sleeps and the menu offers to start it; tray itself never starts \
            it. Where the GNOME Shell extension is on, or the Plasma widget is in a panel, the item asks \
            the tray to hide it. Started in \
            graphical sessions by petprogress-tray.service or the XDG autostart entry. Exits 0 on \
            SIGTERM, SIGINT or when the session bus goes away.
            """))

    func run() throws {
        let tray = try TrayLoop(session: Session(), iconThemePath: Self.iconThemePath(), clock: ClockStyle())
        let code = try tray.run()
        throw ExitCode(code)
    }

    /// `<prefix>/share/icons` for the prefix petctl runs from, where `make install` put the icons.
    static func iconThemePath() -> String {
        let executable = FileSystem.linkTarget("/proc/self/exe") ?? CommandLine.arguments[0]
        var parts = executable.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count >= 3 else { return "" }
        parts.removeLast(2)
        return parts.joined(separator: "/") + "/share/icons"
    }
}
