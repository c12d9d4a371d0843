import ArgumentParser
import PetBus
import PetCore

/// `petctl today`: the Today screen.
struct Today: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "today",
        abstract: "Show the pet and today's tasks.",
        discussion: """
            The progress bar is the pet as it is now; the panel shows the pet as it was at the top of \
            the hour, and a line says so when the two differ.

            Example: petctl today --plain
            """)

    @OptionGroup var display: DisplayOptions

    func run() throws {
        let screen = try Session.run { client in try Self.screen(client) }
        display.show(screen)
    }

    /// The data of the screen: the live pet, the panel's entry and the open day's tasks.
    static func screen(_ client: PetClient) throws -> TodayScreen {
        let (pet, entry, tasks, status) = try client.today()
        return TodayScreen(
            live: pet, entry: entry, tasks: tasks, notice: status.recoveryNotice,
            noticeLine: status.recoveryNotice.map { _ in Self.noticeLine(status) })
    }

    /// The recovery in a few words: where the pet came from (the whole sentence and what was
    /// lost are in `petctl status`).
    static func noticeLine(_ status: ServiceStatus) -> String {
        switch status.recoverySource {
        case "snapshot": "State restored from a copy (closeout of \(status.recoveryDay))"
        case "history": "Pet rebuilt from history (closeout of \(status.recoveryDay))"
        default: "State damaged; started over (history kept)"
        }
    }
}

/// How the Today screen is shown: `--plain` sentences, or the screen with `--color`.
struct DisplayOptions: ParsableArguments {
    @Flag(help: "One plain sentence per line, for screen readers and scripts.")
    var plain = false

    @Option(help: "Colour: auto (only on a terminal), always or never. NO_COLOR and TERM=dumb always turn it off.")
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
