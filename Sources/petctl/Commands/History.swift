import ArgumentParser
import PetBus
import PetCore

/// `petctl history [--days N]`: the last N days as a calendar heatmap and the pet over them.
struct History: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "history",
        abstract: tr("Show the last days as a calendar of completion rates, and the pet over them."),
        discussion: tr(
            """
            One cell a day, weeks as rows from the first day of the week in your locale (Monday in C), \
            shaded by the share of tasks done: all, 80 %% or more (the daily bonus), 40-79 %%, under 40 %% \
            (the daily penalty). Rest days, away days, return days, days without tasks, days with no \
            record and today are marked apart; a week's total counts its closed days only. Beneath: the pet at the \
            end of each day. petctl log DAY tells why a day changed the pet.

            Examples: petctl history    petctl history --days 90    petctl history --plain
            """))

    @Option(help: ArgumentHelp(tr("How many days, today included (1-366)."))) var days = 28

    @OptionGroup var display: DisplayOptions

    func validate() throws {
        guard (1...366).contains(days) else { throw ValidationError(tr("--days takes 1 to 366, not %d", days)) }
    }

    func run() throws {
        let session = Session()
        let view = try session.run { client in
            HistoryView(days: try Self.days(days, client), stages: try client.stages())
        }
        if display.plain {
            Output.lines(view.plain())
            return
        }
        let terminal = Terminal.current(display.color)
        Output.lines(view.render(width: terminal.width, style: Style(on: terminal.color)))
    }

    /// The `count` days up to the open day, with their records and the pet at each day's end —
    /// from the first day of use when that is later: days before it are not days without a record.
    static func days(_ count: Int, _ client: PetClient) throws -> [HistoryDay] {
        let status = try client.status()
        guard let today = CivilDate(parsing: status.openDay) else {
            // not translated: a malformed reply's detail, for a bug report.
            throw Session.fail(.malformedReply(BusDecodingError("GetStatus gave no open day")))
        }
        let first = today.adding(days: 1 - count)
        let yesterday = today.adding(days: -1)
        let records = count > 1 ? try client.allHistory(from: first.description, to: yesterday.description) : []
        // The pet before the first day, unless the first day has its own record.
        var before: PetState?
        var start = first
        if records.first?.dayKey != first.description {
            if let last = try client.history(from: "", to: first.adding(days: -1).description).records.last {
                before = PetState(stageIndex: last.stageIndexClose, stageXP: last.stageXPClose)
            } else {
                start = records.first.flatMap { CivilDate(parsing: $0.dayKey) } ?? today
            }
        }
        return HistoryDay.days(
            from: start, today: today, records: records, before: before, entry: try client.widgetEntry(),
            live: try client.pet())
    }
}
