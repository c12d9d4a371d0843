import ArgumentParser
import PetCore

/// `petctl simulate`: the rules run offline on a synthetic user (petprogress(7) §7), to tune thresholds.
struct Simulate: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "simulate",
        abstract: tr("Run the rules offline on a synthetic user and show when each stage is reached."),
        discussion: tr(
            """
            Each simulated day has --tasks tasks; each is done with chance --done-rate, and a done \
            task is on time with chance --on-time-rate (else late). Rest days are the last days of \
            each week (day 1 is a Monday, so 2 means weekends): nothing is charged on them. The \
            stage table is yours (stages.json) unless --stages names another file to try. No \
            daemon is involved.

            Examples:
              petctl simulate --days 365 --tasks 5 --done-rate 0.8 --on-time-rate 0.8
              petctl simulate --days 730 --tasks 5 --done-rate 0.6 --on-time-rate 0.8 --rest-days-per-week 2
              petctl simulate --days 365 --tasks 5 --done-rate 0.8 --on-time-rate 0.8 --stages my-stages.json --csv
            """))

    @Option(help: ArgumentHelp(tr("Days to simulate (1-36500)."))) var days: Int
    @Option(help: ArgumentHelp(tr("Tasks a day (0-200)."))) var tasks: Int
    @Option(help: ArgumentHelp(tr("The chance a task is done, 0-1."))) var doneRate: TypedDecimal
    @Option(help: ArgumentHelp(tr("The chance a done task is on time, 0-1."))) var onTimeRate: TypedDecimal
    @Option(help: ArgumentHelp(tr("Rest days a week, 0-7."))) var restDaysPerWeek = 0
    @Option(help: ArgumentHelp(tr("The seed; the same seed gives the same user."))) var seed: UInt64 = 1
    @Option(help: ArgumentHelp(tr("A stage table file to try instead of the one in force."))) var stages: String?
    @Flag(help: ArgumentHelp(tr("CSV: one row per stage (stage,name,threshold,first_day)."))) var csv = false
    @Flag(help: ArgumentHelp(tr("CSV: one row per day (day,rest,on_time,late,missed,xp_change,stage,stage_xp).")))
    var perDay = false

    func validate() throws {
        if csv, perDay { throw ValidationError(tr("choose --csv or --per-day, not both")) }
        // The rules' own checks, in the user's language and with their decimals (SimulationConfig
        // below holds the same bounds).
        guard (1...SimulationConfig.maxDays).contains(days) else {
            throw ValidationError(tr("--days must be between %d and %d, not %d.", 1, SimulationConfig.maxDays, days))
        }
        guard (0...SimulationConfig.maxTasksPerDay).contains(tasks) else {
            throw ValidationError(
                tr("--tasks must be between %d and %d, not %d.", 0, SimulationConfig.maxTasksPerDay, tasks))
        }
        for (name, rate) in [("--done-rate", doneRate.value), ("--on-time-rate", onTimeRate.value)]
        where !rate.isFinite || !(0...1).contains(rate) {
            throw ValidationError(tr("%s must be a number between 0 and 1, not %s.", name, LocalNumber.decimal(rate)))
        }
        guard (0...7).contains(restDaysPerWeek) else {
            throw ValidationError(tr("--rest-days-per-week must be between 0 and 7, not %d.", restDaysPerWeek))
        }
        do {
            _ = try config()
        } catch {
            throw ValidationError(error.message)
        }
    }

    /// The table for people, in the user's language: the run, one stage a line (numbered from 1,
    /// as the summary and every screen count them), and where the pet ended.
    static func table(_ result: SimulationResult, width: Int = 80) -> [String] {
        let c = result.config
        var parts = [
            trn("%d day", "%d days", c.days), trn("%d task a day", "%d tasks a day", c.tasksPerDay),
            tr("done rate %s", LocalNumber.decimal(c.doneRate)),
            tr("on-time rate %s", LocalNumber.decimal(c.onTimeRate)),
        ]
        if c.restDaysPerWeek > 0 { parts.append(trn("%d rest day a week", "%d rest days a week", c.restDaysPerWeek)) }
        parts.append(tr("seed %s", "\(c.seed)"))
        let names = result.stages.stages.map { trc("pet form", dynamic: $0.name) }
        let heads = [tr("stage"), tr("name"), tr("threshold"), tr("first day")]
        let days = result.stages.stages.map { result.firstDay[$0.i].map(String.init) ?? tr("not reached") }
        var widths = [
            max(TextWidth.columns(heads[0]), 2),
            max(TextWidth.columns(heads[1]), names.map(TextWidth.columns).max() ?? 0),
            max(TextWidth.columns(heads[2]), 5),
        ]
        // A narrow terminal cuts the names, not the numbers: the other columns keep their width.
        let others = widths[0] + widths[2] + 3 * 2 + max(TextWidth.columns(heads[3]), days.map(TextWidth.columns).max() ?? 0)
        if widths[1] + others > width { widths[1] = max(TextWidth.columns(heads[1]), 6, width - others) }
        let row = { (cells: [String]) in
            var cells = cells
            cells[1] = TextWidth.truncate(cells[1], to: widths[1])
            return (zip(cells, widths).map { TextWidth.pad($0, to: $1) } + [cells[3]]).joined(separator: "  ")
                .trimmingTrailingSpaces
        }
        // The sentences wrap at spaces (a French no-break space holds its colon).
        var lines = TextWidth.wrap(tr("Simulated %s.", parts.joined(separator: ", ")), width: width) + [row(heads)]
        for ((stage, name), day) in zip(zip(result.stages.stages, names), days) {
            lines.append(row(["\(stage.i + 1)", name, "\(stage.threshold)", day]))
        }
        let final = result.final
        lines += TextWidth.wrap(
            tr(
                "After day %d: %s (%s), %d XP.", c.days, names[min(final.stageIndex, names.count - 1)],
                tr("stage %d of %d", final.stageIndex + 1, result.stages.count), final.stageXP),
            width: width)
        return lines
    }

    func config() throws(PetError) -> SimulationConfig {
        try SimulationConfig(
            days: days, tasksPerDay: tasks, doneRate: doneRate.value, onTimeRate: onTimeRate.value,
            restDaysPerWeek: restDaysPerWeek, seed: seed)
    }

    func run() throws {
        let table: StageTable
        if let stages {
            do { table = try StageTables.read(stages) } catch { throw ValidationError(error.problem) }
        } else {
            let (inForce, problem) = StageTables.inForce()
            if let problem { Output.error(tr("note: %s", problem)) }
            table = inForce
        }
        let result = Simulator.run(try config(), stages: table)
        if csv { return Output.text(result.csv) }
        if perDay { return Output.text(result.daysCSV) }
        let width = Terminal.current(.never).width
        Output.lines(Self.table(result, width: width))
        let chart = StageChart.lines(
            result.days.map(\.petAtClose), stages: table, width: width, left: tr("day %d", 1), right: tr("day %d", days)
        )
        Output.lines(["", tr("The pet at the end of each day")] + chart)
    }
}
