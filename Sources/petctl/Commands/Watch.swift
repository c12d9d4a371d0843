import ArgumentParser
import DBusKit
import Glibc
import PetBus

/// `petctl watch`: the entry now and again on every change, one line each, for panels' continuous
/// modes (waybar's `exec` without `interval`, polybar's `tail = true`, i3blocks' `persist`).
struct Watch: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "watch",
        abstract: tr("Print the panel's entry now and on every change, one line each, until stopped."),
        discussion: tr(
            """
            A line is printed at start, and again only when it changed: on EntryChanged (the hourly tick) \
            and TasksChanged, and when the next task turns due or overdue. When the daemon stops, the format's "not running" record is \
            printed and watch waits for it to come back. Exits 0 on SIGTERM, SIGINT or a closed pipe.

            Example (waybar): "exec": "petctl watch --format waybar", "return-type": "json"
            """))

    @OptionGroup var panel: PanelOptions

    func run() throws {
        // A closed pipe must end watch quietly, through write(2)'s EPIPE, not kill it.
        signal(SIGPIPE, SIG_IGN)
        let code = try Watcher(line: panel.line(ClockStyle()), session: Session()).run()
        throw ExitCode(code)
    }
}
