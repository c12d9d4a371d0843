import PetCore

/// `petctl history`: the heatmap, a line of totals, the legend and the stage chart; or, with
/// `--plain`, one sentence a day.
struct HistoryView {
    let days: [HistoryDay]
    let stages: StageTable

    func render(width: Int, style: Style) -> [String] {
        guard let first = days.first, let last = days.last else { return [] }
        // Wrapped at whole words where it does not fit (the French header at 40 columns), a date
        // kept on one line.
        let header = { (date: (CivilDate) -> String) in
            days.count == 1
                ? tr("Today, %s", date(last.key))
                : tr("Last %d days, %s to %s", days.count, date(first.key), date(last.key))
        }
        let oneLine = header(LocalClock.shortDate)
        var lines =
            TextWidth.columns(oneLine) <= width
            ? [oneLine] : TextWidth.wrap(header { LocalClock.shortDate($0).replacing(" ", with: "\u{A0}") }, width: width)
        lines += Heatmap.lines(days, width: width, style: style)
        lines += TextWidth.wrap(totals, width: width)
        lines += Heatmap.legend(width: width, style: style)
        let chart = StageChart.lines(
            days.map(\.pet), stages: stages, width: width, left: LocalClock.shortDate(first.key), right: tr("today"))
        if !chart.isEmpty { lines += ["", tr("The pet at the end of each day")] + chart }
        return lines
    }

    /// `Closed days: 61 of 80 tasks done (76 %), 4 rest days, 2 days without a record.`
    var totals: String {
        let closed = days.filter { !$0.isToday }
        // An away day's tasks were never judged: they are counted as away days, not as undone.
        let counts = closed.filter { !$0.away }.compactMap(\.counts)
        let done = counts.reduce(0) { $0 + $1.done }
        let total = counts.reduce(0) { $0 + $1.total }
        var parts: [String] = []
        if !counts.isEmpty {
            parts.append(
                total == 0 ? tr("no tasks") : tr("%d of %d tasks done (%d %%)", done, total, done * 100 / total))
        }
        let rest = closed.filter(\.rest).count
        if rest > 0 { parts.append(trn("%d rest day", "%d rest days", rest)) }
        let away = closed.filter { $0.record?.away == true }.count
        if away > 0 { parts.append(trn("%d away day", "%d away days", away)) }
        let returned = closed.filter { $0.record?.returned == true }.count
        if returned > 0 { parts.append(trn("%d return day", "%d return days", returned)) }
        let missing = closed.filter { $0.counts == nil }.count
        if missing > 0 { parts.append(trn("%d day without a record", "%d days without a record", missing)) }
        return parts.isEmpty ? tr("No day has closed yet.") : tr("Closed days: %s.", parts.joined(separator: ", "))
    }

    /// One sentence a day, oldest first.
    func plain() -> [String] { days.map(sentence) }

    func sentence(_ day: HistoryDay) -> String {
        let name = "\(day.key) \(LocalClock.weekdayName(day.key))"
        let pet = day.pet.map { "; " + PetText.short($0, stages) } ?? ""
        switch day.kind {
        case .noRecord:
            return tr("%s: no record%s.", name, pet)
        case .today(let done, let total):
            let rest = day.rest ? tr(", a rest day") : ""
            let tasks = total == 0 ? tr("no tasks yet") : tr("%d of %d done so far", done, total)
            return tr("%s: today%s, %s%s now.", name, rest, tasks, pet)
        case .closed(let r):
            let rest =
                (r.rest ? tr("rest day, ") : "") + (r.away ? tr("away, ") : "") + (r.returned ? tr("return day, ") : "")
            let rate = r.tasksTotal == 0 || r.unjudged ? "" : tr(" (%d %%)", r.tasksDone * 100 / r.tasksTotal)
            let tasks = r.tasksTotal == 0 ? tr("no tasks") : tr("%d of %d done%s", r.tasksDone, r.tasksTotal, rate)
            return tr("%s: %s%s, %s XP%s.", name, rest, tasks, PetText.signed(r.xpChange), pet)
        }
    }
}
