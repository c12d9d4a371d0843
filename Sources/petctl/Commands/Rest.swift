import ArgumentParser
import PetBus
import PetCore

/// `petctl rest [FROM [TO]]`, `rest --clear [FROM [TO]]`, `rest --list`: rest days (petprogress(7) §3.1.1).
struct Rest: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rest",
        abstract: tr("Mark rest days, clear them, or list them."),
        discussion: tr(
            """
            On a rest day nothing is charged: undone tasks cost nothing and there is no daily \
            result, while tasks done still earn their XP. Mark today while it is open, or days ahead \
            (up to 365). A day that has ended stays as it was judged.

            Examples:
              petctl rest                          today
              petctl rest tomorrow
              petctl rest 2026-08-03 2026-08-14    a holiday
              petctl rest --clear 2026-08-14
              petctl rest --list
            """))

    /// A day as `SetRest` takes it: `today`, `tomorrow` or a day key; anything else is bad usage.
    static func day(_ text: String) throws -> String {
        guard text == "today" || text == "tomorrow" || CivilDate(parsing: text) != nil else {
            throw ValidationError(tr("a day is today, tomorrow or a date YYYY-MM-DD, not '%s'", text))
        }
        return text
    }

    @Argument(help: ArgumentHelp(tr("The first day: today (the default), tomorrow or YYYY-MM-DD.")), transform: day)
    var from: String?

    @Argument(help: ArgumentHelp(tr("The last day (default: the first).")), transform: day) var to: String?

    @Flag(help: ArgumentHelp(tr("Make the days ordinary days again."))) var clear = false

    @Flag(help: ArgumentHelp(tr("List the rest days marked from today on."))) var list = false

    func validate() throws {
        if list, clear || from != nil { throw ValidationError(tr("--list takes no days and no --clear")) }
    }

    func run() throws {
        let session = Session()
        if list {
            let (days, open) = try session.run { client in (try client.listRestDays(), try client.status().openDay) }
            Output.lines(Self.listing(days, openDay: open))
            return
        }
        let first = from ?? "today"
        let last = to ?? first
        let (days, open, marked) = try session.run { client in
            let marked = clear ? Set(try client.listRestDays()) : []
            try client.setRest(from: first, to: last, rest: !clear)
            let status = try client.status()
            return (try Self.resolve(first, last, client: client, openDay: status.openDay), status.openDay, marked)
        }
        if clear, !days.isEmpty, days.allSatisfy({ !marked.contains($0) }) {
            return Output.lines([Self.nothingToClear(days, openDay: open)])
        }
        Output.lines([Self.sentence(days, cleared: clear, openDay: open)])
    }

    /// The day keys of the range just changed (after success, so both ends are valid days).
    static func resolve(_ first: String, _ last: String, client: PetClient, openDay: String) throws -> [String] {
        guard let open = CivilDate(parsing: openDay) else { return [] }
        func key(_ text: String) -> CivilDate? {
            switch text {
            case "today": open
            // The next day's key; only an unusual reset-time change makes it other than open + 1.
            case "tomorrow": open.adding(days: 1)
            default: CivilDate(parsing: text)
            }
        }
        guard let a = key(first), let b = key(last), a <= b else { return [] }
        return (a.daysSinceEpoch...b.daysSinceEpoch).map { CivilDate(daysSinceEpoch: $0).description }
    }

    /// `Rest day: Monday 2 March (today).` / `Rest days: Monday 3 August to Friday 14 August (12 days).`
    static func sentence(_ days: [String], cleared: Bool, openDay: String) -> String {
        let name = names(days, openDay: openDay)
        guard let first = days.first, let last = days.last else { return cleared ? tr("Cleared.") : tr("Marked.") }
        if days.count == 1 {
            return cleared ? tr("No longer a rest day: %s.", name(first)) : tr("Rest day: %s.", name(first))
        }
        let count = trn("%d day", "%d days", days.count)
        return cleared
            ? tr("No longer rest days: %s to %s (%s).", name(first), name(last), count)
            : tr("Rest days: %s to %s (%s).", name(first), name(last), count)
    }

    /// `--clear` on days none of which was a rest day: it says so rather than claim it cleared them.
    static func nothingToClear(_ days: [String], openDay: String) -> String {
        let name = names(days, openDay: openDay)
        guard let first = days.first, let last = days.last else { return tr("Nothing to clear.") }
        if days.count == 1 { return tr("Nothing to clear: %s is not a rest day.", name(first)) }
        return tr("Nothing to clear: no day from %s to %s is a rest day.", name(first), name(last))
    }

    /// How a sentence names each of `days`: `Monday 2 March (today)`, with the year when the days
    /// are not all in the open day's year (`Monday 28 December 2026 to Friday 8 January 2027`).
    static func names(_ days: [String], openDay: String) -> (String) -> String {
        let years = Set((days + [openDay]).map { $0.prefix(4) })
        return { key in
            let day = LocalClock.dayName(key) + (years.count > 1 ? " \(key.prefix(4))" : "")
            return key == openDay ? tr("%s (today)", day) : day
        }
    }

    /// One line a marked day, or a hint when there is none.
    static func listing(_ days: [String], openDay: String) -> [String] {
        guard !days.isEmpty else { return [tr("No rest days marked. Mark one: petctl rest tomorrow")] }
        return days.map {
            "\($0)  " + ($0 == openDay ? tr("%s (today)", LocalClock.dayName($0)) : LocalClock.dayName($0))
        }
    }
}
