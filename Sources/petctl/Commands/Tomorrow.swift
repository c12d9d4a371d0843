import ArgumentParser
import PetBus
import PetCore

/// `petctl tomorrow`: the next day's tasks, the repeating ones it will get, the copies rollover
/// would bring, and whether it rests.
struct Tomorrow: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tomorrow",
        abstract: tr("Show tomorrow: its tasks, the repeating ones it will get, and whether it rests."),
        discussion: tr(
            """
            Tomorrow's tasks are named +1, +2, … (today's are 1, 2, …), repeating tasks by their \
            rN (as petctl templates lists them), and a task of today that rollover would bring by today's number.
            Examples: petctl tomorrow    petctl add 09:30 Dentist --tomorrow    petctl edit +1 --time 10:00
            """))

    @Option(
        help: ArgumentHelp(
            tr("Colour: auto (only on a terminal), always or never. NO_COLOR and TERM=dumb always turn it off.")))
    var color: Terminal.ColorChoice = .auto

    func run() throws {
        let (session, clock) = (Session(), ClockStyle())
        let screen = try session.run { client in try Self.screen(client, clock: clock) }
        let terminal = Terminal.current(color)
        Output.lines(screen.render(width: terminal.width, style: Style(on: terminal.color)))
    }

    static func screen(_ client: PetClient, clock: ClockStyle) throws -> TomorrowScreen {
        let status = try client.status()
        let key = status.nextDay
        let rest = try client.listRestDays().contains(key)
        let weekday = CivilDate(parsing: key)?.weekday
        let repeating =
            rest
            ? []
            : try client.listTemplates().filter { template in
                guard let weekday, let rule = try? Repeat.parse(template.repeatRule) else { return false }
                return rule.matches(weekday)
            }
        let rolled =
            try client.settings().rollover
            ? try client.listTasks(day: "").filter { !$0.done && $0.templateID.isEmpty } : []
        return TomorrowScreen(
            dayKey: key, rest: rest, added: try client.listTasks(day: "tomorrow"), repeating: repeating, rolled: rolled,
            clock: clock)
    }
}
