import ArgumentParser
import Glibc
import LinuxKit

/// `petctl open [petprogress://today]`: the deep-link target (the panel's "tap the widget").
struct Open: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "open",
        abstract: tr("Open a petprogress:// link: petprogress://today shows the Today screen."),
        discussion: tr(
            """
            The desktop's handler for petprogress:// links runs "petctl open --hold %%u" in a terminal \
            window: there the link opens the live Today screen (petctl today --interactive), and the \
            window closes when you leave it with q. Without a terminal it prints the screen; --hold \
            then keeps a window open until you press Enter.

            Example: petctl open petprogress://today
            """))

    static let accepted = "petprogress://today"

    @Argument(help: ArgumentHelp(tr("The link; %s (the default).", accepted)))
    var uri: String = accepted

    @Flag(
        help: ArgumentHelp(
            tr(
                """
                After the screen (or an error), wait for Enter before exiting, so that a terminal window \
                opened for the link stays open. Waits only when standard input is a terminal.
                """)))
    var hold = false

    @OptionGroup var display: DisplayOptions

    func validate() throws {
        // With --hold, run() reports a bad link and then holds: an error in a window that closes
        // at once is never read.
        if !hold, let problem = Self.problem(uri) { throw ValidationError(problem) }
    }

    func run() throws {
        let (session, clock) = (Session(), ClockStyle())
        // In a terminal (the handler's window) the link opens the live screen, and the window
        // closes when the user leaves it; without one, the printout.
        if Self.problem(uri) == nil, !display.plain, TerminalDevice.isTerminal(0), TerminalDevice.isTerminal(1) {
            let color = Terminal.current(display.color).color
            throw ExitCode(try InteractiveToday(session: session, color: color, clock: clock).run())
        }
        defer { if hold { Hold.untilEnter() } }
        if let problem = Self.problem(uri) {
            Output.error(tr("%s (see %s)", problem, PetCtl.help("open")))
            throw ExitCode(64)
        }
        let screen = try session.run { client in try Today.screen(client, clock: clock) }
        display.show(screen)
    }

    /// Why `uri` is not a link petctl opens, or nil.
    static func problem(_ uri: String) -> String? {
        // Desktop launchers may pass the link with a trailing slash.
        guard uri != accepted && uri != accepted + "/" else { return nil }
        return tr("'%s' is not a link petctl opens; the accepted form is %s", uri, accepted)
    }
}
