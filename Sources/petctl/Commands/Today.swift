import ArgumentParser
import Glibc
import LinuxKit
import PetBus
import PetCore

/// `petctl today`: the Today screen.
struct Today: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "today",
        abstract: tr("Show the pet and today's tasks."),
        discussion: tr(
            """
            The progress bar is the pet as it is now; the panel shows the pet as it was at the top of \
            the hour, and a line says so when the two differ. When a day's closeout changed the pet's \
            form since the screen was last shown, a line says so, once (the last closed day shown is \
            kept in $XDG_STATE_HOME/petprogress/today-seen).

            With --interactive the screen takes the whole terminal and follows every change until q; \
            the keys are listed under ?.

            Examples: petctl today --plain    petctl today --interactive
            """))

    @OptionGroup var display: DisplayOptions

    @Flag(
        help: ArgumentHelp(
            tr(
                """
                Full screen and live in a terminal: arrows or j/k move, Enter or Space marks done, s snoozes, \
                u undoes, x deletes, ? lists the keys, q leaves.
                """)))
    var interactive = false

    func validate() throws {
        if interactive, !TerminalDevice.isTerminal(0) || !TerminalDevice.isTerminal(1) {
            throw ValidationError(tr("--interactive needs a terminal; for a printout use petctl today"))
        }
        if interactive, display.plain { throw ValidationError(tr("--interactive and --plain do not go together")) }
    }

    func run() throws {
        let (session, clock) = (Session(), ClockStyle())
        if interactive {
            let color = Terminal.current(display.color).color
            throw ExitCode(try InteractiveToday(session: session, color: color, clock: clock).run())
        }
        let screen = try session.run { client in try Self.screen(client, clock: clock) }
        display.show(screen)
    }

    /// The data of the screen: the live pet, the panel's entry and the open day's tasks.
    static func screen(_ client: PetClient, clock: ClockStyle) throws -> TodayScreen {
        let (pet, entry, tasks, status) = try client.today()
        var screen = TodayScreen(
            live: pet, entry: entry, tasks: tasks, clock: clock, notice: status.recoveryNotice,
            noticeLine: status.recoveryNotice.map { _ in Self.noticeLine(status) })
        screen.formChange = try formChange(client, lastClosed: status.lastClosedDay)
        if status.clockBehind {
            screen.clockBehind = clockBehindLine(status)
            screen.clockBehindSentence = clockBehindSentence(status)
        }
        return screen
    }

    /// The clock that went back (petprogress(7) §3.1) in one short line for the screen: the open day
    /// and what to restore, so that the snapshot's name fits 80 columns.
    static func clockBehindLine(_ status: ServiceStatus) -> String {
        let ack = "petctl status --ack"  // not translated: a command
        let restore = "petctl restore \(status.clockBehindSnapshot)"  // not translated: a command
        return tr("Clock behind %s: %s", status.openDay, status.clockBehindSnapshot.isEmpty ? ack : restore)
    }

    /// The same in a whole sentence (`--plain`): the clock's day, the open day, both ways out.
    static func clockBehindSentence(_ status: ServiceStatus) -> String {
        let ack = "petctl status --ack"  // not translated: a command
        let restore = "petctl restore \(status.clockBehindSnapshot) · "  // not translated: a command
        let remedy = status.clockBehindSnapshot.isEmpty ? ack : restore + ack
        return tr("The clock reads %s, before the open day %s: %s", status.clockDay, status.openDay, remedy)
    }

    /// The closeouts since the screen last showed a closed day (or since it was first shown,
    /// before any), if they changed the form; then the last closed day is the last shown. The
    /// first time ever, nothing is said.
    static func formChange(_ client: PetClient, lastClosed: String) throws(PetClientError) -> String? {
        let seenText = SeenCloseout.read()
        guard let last = CivilDate(parsing: lastClosed) else {
            if seenText == nil { SeenCloseout.write(SeenCloseout.beforeAnyCloseout) }
            return nil
        }
        guard let seenText else {
            SeenCloseout.write(last.description)
            return nil
        }
        let seen = CivilDate(parsing: seenText)
        if let seen, seen >= last { return nil }
        SeenCloseout.write(last.description)
        let records = try client.allHistory(from: seen?.adding(days: 1).description ?? "", to: last.description)
        return FormChange.sentence(records, stages: try client.stages())
    }

    /// The recovery in a few words: where the pet came from (the whole sentence and what was
    /// lost are in `petctl status`).
    static func noticeLine(_ status: ServiceStatus) -> String {
        switch status.recoverySource {
        case "snapshot": tr("State restored from a copy (closeout of %s)", status.recoveryDay)
        case "history": tr("Pet rebuilt from history (closeout of %s)", status.recoveryDay)
        default: tr("State damaged; started over (history kept)")
        }
    }
}

/// How the Today screen is shown: `--plain` sentences, or the screen with `--color`.
struct DisplayOptions: ParsableArguments {
    @Flag(help: ArgumentHelp(tr("One plain sentence per line, for screen readers and scripts.")))
    var plain = false

    @Option(
        help: ArgumentHelp(
            tr("Colour: auto (only on a terminal), always or never. NO_COLOR and TERM=dumb always turn it off.")))
    var color: Terminal.ColorChoice = .auto

    func show(_ screen: TodayScreen) {
        if plain {
            Output.lines(screen.plain())
            return
        }
        let terminal = Terminal.current(color)
        Output.lines(screen.render(width: terminal.width, style: Style(on: terminal.color)))
    }
}

extension Terminal.ColorChoice: ExpressibleByArgument {}
