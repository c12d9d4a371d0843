import PetCore

/// `petctl history`: the heatmap, a line of totals, the legend and the stage chart; or, with
/// `--plain`, one sentence a day.
struct HistoryView {
    let days: [HistoryDay]
    let stages: StageTable

    func render(width: Int, style: Style) -> [String] {
        guard let first = days.first, let last = days.last else { return [] }
        var lines = [
            days.count == 1
                ? "Today, \(LocalClock.shortDate(last.key))"
                : "Last \(days.count) days, \(LocalClock.shortDate(first.key)) to \(LocalClock.shortDate(last.key))"
        ]
        lines += Heatmap.lines(days, width: width, style: style)
        lines += TextWidth.wrap(totals, width: width)
        lines += Heatmap.legend(width: width, style: style)
        let chart = StageChart.lines(
            days.map(\.pet), stages: stages, width: width, left: LocalClock.shortDate(first.key), right: "today")
        if !chart.isEmpty { lines += ["", "The pet at the end of each day"] + chart }
        return lines
    }

    /// `Closed days: 61 of 80 tasks done (76 %), 4 rest days, 2 days without a record.`
    var totals: String {
        let closed = days.filter { !$0.isToday }
        let counts = closed.compactMap(\.counts)
        let done = counts.reduce(0) { $0 + $1.done }
        let total = counts.reduce(0) { $0 + $1.total }
        var parts: [String] = []
        if !counts.isEmpty {
            parts.append(total == 0 ? "no tasks" : "\(done) of \(total) tasks done (\(done * 100 / total) %)")
        }
        let rest = closed.filter(\.rest).count
        if rest > 0 { parts.append("\(rest) rest day\(rest == 1 ? "" : "s")") }
        let away = closed.filter { $0.record?.away == true }.count
        if away > 0 { parts.append("\(away) away day\(away == 1 ? "" : "s")") }
        let returned = closed.filter { $0.record?.returned == true }.count
        if returned > 0 { parts.append("\(returned) return day\(returned == 1 ? "" : "s")") }
        let missing = closed.filter { $0.counts == nil }.count
        if missing > 0 { parts.append("\(missing) day\(missing == 1 ? "" : "s") without a record") }
        return parts.isEmpty ? "No day has closed yet." : "Closed days: " + parts.joined(separator: ", ") + "."
    }

    /// One sentence a day, oldest first.
    func plain() -> [String] { days.map(sentence) }

    func sentence(_ day: HistoryDay) -> String {
        let name = "\(day.key) \(LocalClock.dayName(day.key.description).prefix { $0 != " " })"
        let pet = day.pet.map { "; " + PetText.short($0, stages) } ?? ""
        switch day.kind {
        case .noRecord:
            return "\(name): no record\(pet)."
        case .today(let done, let total):
            let rest = day.rest ? ", a rest day" : ""
            let tasks = total == 0 ? "no tasks yet" : "\(done) of \(total) done so far"
            return "\(name): today\(rest), \(tasks)\(pet) now."
        case .closed(let r):
            let rest = (r.rest ? "rest day, " : "") + (r.away ? "away, " : "") + (r.returned ? "return day, " : "")
            let rate = r.tasksTotal == 0 || r.unjudged ? "" : " (\(r.tasksDone * 100 / r.tasksTotal) %)"
            let tasks = r.tasksTotal == 0 ? "no tasks" : "\(r.tasksDone) of \(r.tasksTotal) done\(rate)"
            return "\(name): \(rest)\(tasks), \(PetText.signed(r.xpChange)) XP\(pet)."
        }
    }
}
