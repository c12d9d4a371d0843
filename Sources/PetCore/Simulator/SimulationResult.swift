/// The outcome of a simulation and its two printed forms: a table for people, CSV for `--csv`.
public struct SimulationResult: Hashable, Sendable {
    public let config: SimulationConfig
    public let stages: StageTable
    /// Per stage index: the day it was first reached (0 = the start), or nil if never.
    public let firstDay: [Int?]
    public let days: [Simulator.Day]
    /// The pet after the last day's closeout.
    public let final: PetState

    /// An aligned table, one stage a line, then the final state.
    public var text: String {
        let c = config
        let rest =
            c.restDaysPerWeek == 0 ? "" : "\(c.restDaysPerWeek) rest day\(c.restDaysPerWeek == 1 ? "" : "s") a week, "
        var lines = [
            "Simulated \(c.days) days, \(c.tasksPerDay) tasks a day, done rate \(c.doneRate), "
                + "on-time rate \(c.onTimeRate), \(rest)seed \(c.seed)."
        ]
        let width = max(5, stages.stages.map(\.name.count).max() ?? 5)
        lines.append(["stage", "name".padding(width), "threshold", "first day"].joined(separator: "  "))
        for stage in stages.stages {
            let day = firstDay[stage.i].map(String.init) ?? "not reached"
            lines.append(
                [String(stage.i).padding(5), stage.name.padding(width), String(stage.threshold).padding(9), day]
                    .joined(separator: "  "))
        }
        let shown = stages.stage(final.stageIndex)
        let position = "stage \(final.stageIndex + 1) of \(stages.count)"
        lines.append("After day \(c.days): \(shown.name) (\(position)), \(final.stageXP) XP.")
        return lines.joined(separator: "\n") + "\n"
    }

    /// `stage,name,threshold,first_day`, one row a stage; `first_day` empty when never reached.
    public var csv: String {
        var rows = ["stage,name,threshold,first_day"]
        for stage in stages.stages {
            rows.append(
                "\(stage.i),\(csvField(stage.name)),\(stage.threshold),\(firstDay[stage.i].map(String.init) ?? "")")
        }
        return rows.joined(separator: "\n") + "\n"
    }

    /// `day,rest,on_time,late,missed,xp_change,stage,stage_xp`, one row a simulated day: its
    /// outcomes, the XP its events added up to, and the pet after its closeout.
    public var daysCSV: String {
        var rows = ["day,rest,on_time,late,missed,xp_change,stage,stage_xp"]
        for day in days {
            let count = { (o: Simulator.Outcome) in day.outcomes.filter { $0 == o }.count }
            rows.append(
                "\(day.number),\(day.rest),\(count(.onTime)),\(count(.late)),\(count(.missed)),\(day.xpChange),"
                    + "\(day.petAtClose.stageIndex),\(day.petAtClose.stageXP)")
        }
        return rows.joined(separator: "\n") + "\n"
    }

    /// RFC 4180 quoting for a field from a user's stage file.
    private func csvField(_ s: String) -> String {
        guard s.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else { return s }
        return "\"" + s.replacing("\"", with: "\"\"") + "\""
    }
}

extension String {
    /// Left-aligned in `width` characters.
    fileprivate func padding(_ width: Int) -> String {
        count >= width ? self : self + String(repeating: " ", count: width - count)
    }
}
