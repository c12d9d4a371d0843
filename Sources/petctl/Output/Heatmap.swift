import PetCore

/// The calendar heatmap of `petctl history` (petprogress(7) §7): one 3-column cell a day, weeks as rows
/// from the locale's first weekday (Monday in C), shaded by completion rate at the rules' own
/// boundaries (80 % earns the daily bonus, under 40 % the penalty); rest days, days without tasks,
/// days without a record and today each look different without colour, and colour only adds to that.
enum Heatmap {
    enum Shade: CaseIterable {
        case all, high, middle, low, rest, away, returned, noTasks, noRecord

        /// The cell's mark (three columns; today replaces the outer two with brackets).
        var mark: String {
            switch self {
            case .all: "███"
            case .high: "▓▓▓"
            case .middle: "▒▒▒"
            case .low: "░░░"
            case .rest: " z "
            case .away: " ~ "
            case .returned: " ^ "
            case .noTasks: " - "
            case .noRecord: " · "
            }
        }

        var meaning: String {
            switch self {
            case .all: tr("all done")
            case .high: tr("80 %% or more")
            case .middle: tr("40–79 %%")
            case .low: tr("under 40 %%")
            case .rest: tr("rest day")
            case .away: tr("away day")
            case .returned: tr("return day")
            case .noTasks: tr("no tasks")
            case .noRecord: tr("no record")
            }
        }

        func paint(_ text: String, _ style: Style) -> String {
            switch self {
            case .all, .high: style.green(text)
            case .middle: style.yellow(text)
            case .low: style.red(text)
            case .rest, .away, .returned: style.cyan(text)
            case .noTasks, .noRecord: style.dim(text)
            }
        }
    }

    static func shade(_ day: HistoryDay) -> Shade {
        // Not judged: a week away is not seven red cells.
        if day.away { return .away }
        if day.returned { return .returned }
        if day.rest { return .rest }
        guard let (done, total) = day.counts else { return .noRecord }
        guard total > 0 else { return .noTasks }
        if done == total { return .all }
        if done * 10 >= total * 8 { return .high }
        return done * 10 >= total * 4 ? .middle : .low
    }

    /// A day's cell; today's is bracketed, `[▒]`.
    static func cell(_ day: HistoryDay, _ style: Style) -> String {
        let shade = shade(day)
        guard day.isToday else { return shade.paint(shade.mark, style) }
        let middle = String(shade.mark.dropFirst().prefix(1))
        return style.bold("[") + shade.paint(middle, style) + style.bold("]")
    }

    /// The header and one row a week from the locale's first weekday, each labelled with its
    /// first day's date; with room, each week's tasks done beside it.
    static func lines(_ days: [HistoryDay], width: Int, style: Style) -> [String] {
        guard let first = days.first?.key, let last = days.last?.key else { return [] }
        let byKey = Dictionary(days.map { ($0.key, $0) }, uniquingKeysWith: { $1 })
        let firstWeekday = LocalClock.firstWeekday.rawValue
        let start = first.adding(days: -((first.weekday.rawValue - firstWeekday + 7) % 7))
        let starts = stride(from: start.daysSinceEpoch, through: last.daysSinceEpoch, by: 7).map {
            CivilDate(daysSinceEpoch: $0)
        }
        let labels = starts.map(LocalClock.shortDate)
        let labelWidth = max(6, labels.map(TextWidth.columns).max() ?? 0)
        let heads = (0..<7).compactMap { Weekday(rawValue: (firstWeekday - 1 + $0) % 7 + 1) }.map(
            LocalClock.weekdayHead)
        var lines = [
            (String(repeating: " ", count: labelWidth + 2) + heads.joined(separator: " ")).trimmingTrailingSpaces
        ]
        for (weekStart, label) in zip(starts, labels) {
            let week = (0..<7).map { byKey[weekStart.adding(days: $0)] }
            let cells = week.map { $0.map { cell($0, style) } ?? "   " }.joined(separator: " ")
            var line = TextWidth.padLeft(label, to: labelWidth) + "  " + cells
            if width >= 60 { line += "  " + summary(week.compactMap { $0 }) }
            lines.append(line.trimmingTrailingSpaces)
        }
        return lines
    }

    /// `12 of 15 done` over a week's closed days that were judged (not today so far, not a day
    /// away); nothing for a week without such a day.
    static func summary(_ days: [HistoryDay]) -> String {
        let counts = days.filter { !$0.isToday && !$0.away }.compactMap(\.counts)
        guard !counts.isEmpty else { return "" }
        let total = counts.reduce(0) { $0 + $1.total }
        let done = counts.reduce(0) { $0 + $1.done }
        return total == 0 ? tr("no tasks") : trn("%d of %d done", "%d of %d done", done, done, total)
    }

    /// The legend, wrapped to `width`.
    static func legend(width: Int, style: Style) -> [String] {
        var items = Shade.allCases.map { shade in
            let mark = shade.mark.trimmingSpaces
            return (shade.paint(mark, style) + " " + shade.meaning, TextWidth.columns(mark + " " + shade.meaning))
        }
        let today = tr("today")
        items.append((style.bold("[ ]") + " " + today, 4 + TextWidth.columns(today)))
        return TextWidth.pack(items, width: width)
    }
}

extension String {
    /// Without leading and trailing spaces.
    var trimmingSpaces: String {
        String(drop(while: { $0 == " " }).reversed().drop(while: { $0 == " " }).reversed())
    }
}
