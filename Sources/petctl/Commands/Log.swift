import ArgumentParser
import PetBus
import PetCore

/// `petctl log [DAY] [--days N]`: why the pet changed on closed days.
struct Log: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "log",
        abstract: tr("Explain how closed days changed the pet, event by event."),
        discussion: tr(
            """
            For each day: every task done (+2 on time, +1 early or late, in the order they were done), \
            every task left undone (-2; nothing on a rest day), the daily result (+3 at 80 %% done or \
            more, -3 under 40 %%; none on a rest day), and the pet after the day and before it. An event \
            that evolves the pet says so (with the XP past the threshold, which is dropped); one that \
            de-evolves it shows the new XP: the lower stage's threshold - 1 - the XP below zero \
            (never under 0). The events are computed from the day's tasks and checked against its \
            record; a mismatch is shown.

            Examples: petctl log    petctl log 2026-03-02    petctl log --days 7
            """))

    /// A day key on the command line.
    struct DayKeyArgument: ExpressibleByArgument {
        let key: CivilDate
        init?(argument: String) {
            guard let key = CivilDate(parsing: argument) else { return nil }
            self.key = key
        }
    }

    @Argument(help: ArgumentHelp(tr("The last day to show, YYYY-MM-DD (default: the last closed day)."))) var day:
        DayKeyArgument?

    @Option(help: ArgumentHelp(tr("How many days up to DAY (1-366)."))) var days = 1

    @Option(
        help: ArgumentHelp(
            tr("Colour: auto (only on a terminal), always or never. NO_COLOR and TERM=dumb always turn it off.")))
    var color: Terminal.ColorChoice = .auto

    func validate() throws {
        guard (1...366).contains(days) else { throw ValidationError(tr("--days takes 1 to 366, not %d", days)) }
    }

    func run() throws {
        let (session, clock) = (Session(), ClockStyle())
        let terminal = Terminal.current(color)
        let lines = try session.run { client -> [String] in
            let view = LogView(
                stages: try client.stages(), width: terminal.width, style: Style(on: terminal.color), clock: clock)
            let status = try client.status()
            guard let last = day?.key ?? CivilDate(parsing: status.lastClosedDay) else {
                return [tr("No day has closed yet: the log starts once today ends. petctl today shows today.")]
            }
            if let open = CivilDate(parsing: status.openDay), last >= open {
                throw Session.refuse(
                    tr("%s has not closed yet; the log shows closed days (petctl today shows today)", last))
            }
            let first = last.adding(days: 1 - days)
            let records = try client.allHistory(from: first.description, to: last.description)
            let byKey = Dictionary(records.map { ($0.dayKey, $0) }, uniquingKeysWith: { $1 })
            return (first.daysSinceEpoch...last.daysSinceEpoch).flatMap { n -> [String] in
                let key = CivilDate(daysSinceEpoch: n).description
                return byKey[key].map(view.lines) ?? view.noRecord(key)
            }
        }
        Output.lines(lines)
    }
}
