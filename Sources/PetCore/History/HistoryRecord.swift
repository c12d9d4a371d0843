/// A closed day as `GetHistory` describes it (petprogress(7) §6.1): what it held, what it did to the pet.
public struct HistoryRecord: Hashable, Sendable {
    public var dayKey: String
    /// The day's interval, Unix seconds.
    public var start: Instant
    public var end: Instant
    public var tasksDone: Int
    public var tasksTotal: Int
    /// `tasksDone / tasksTotal`; 0 for a day with no tasks.
    public var rate: Double
    /// Closed as a rest day: no misses charged, no daily result.
    public var rest: Bool
    /// Closed as an away day (petprogress(7) §3.1): untouched after an untouched day, not judged.
    public var away: Bool
    /// Closed as a return day (petprogress(7) §3.1): touched after an untouched day, judged as a rest day.
    public var returned: Bool
    /// The sum of every event the day caused: completions, misses and the daily result.
    public var xpChange: Int
    /// The daily result's own change: +3, −3 or 0.
    public var dailyXP: Int
    public var stageIndexOpen: Int
    public var stageXPOpen: Int
    public var stageIndexClose: Int
    public var stageXPClose: Int
    /// The closing stage's name in the table in force now.
    public var stageNameClose: String
    /// The day's tasks as they stood at closing, in day order (`is_next` and `overdue` false).
    public var tasks: [TaskRecord]

    public init(
        dayKey: String, start: Instant, end: Instant, tasksDone: Int, tasksTotal: Int, rate: Double, rest: Bool,
        xpChange: Int, dailyXP: Int, stageIndexOpen: Int, stageXPOpen: Int, stageIndexClose: Int,
        stageXPClose: Int, stageNameClose: String, tasks: [TaskRecord], away: Bool = false, returned: Bool = false
    ) {
        self.dayKey = dayKey
        self.start = start
        self.end = end
        self.tasksDone = tasksDone
        self.tasksTotal = tasksTotal
        self.rate = rate
        self.rest = rest
        self.away = away
        self.returned = returned
        self.xpChange = xpChange
        self.dailyXP = dailyXP
        self.stageIndexOpen = stageIndexOpen
        self.stageXPOpen = stageXPOpen
        self.stageIndexClose = stageIndexClose
        self.stageXPClose = stageXPClose
        self.stageNameClose = stageNameClose
        self.tasks = tasks
    }

    /// The description of an archived day, its stage name from `stages` (the table in force) and
    /// its tasks' effective times read in `zone`.
    public init(_ record: DayRecord, stages: StageTable, zone: Zone) {
        self.init(
            dayKey: record.day.key.description, start: record.day.start, end: record.day.end,
            tasksDone: record.done, tasksTotal: record.total, rate: record.rate, rest: record.rest,
            xpChange: record.xpChange, dailyXP: record.resultXP, stageIndexOpen: record.petAtOpen.stageIndex,
            stageXPOpen: record.petAtOpen.stageXP, stageIndexClose: record.petAtClose.stageIndex,
            stageXPClose: record.petAtClose.stageXP,
            stageNameClose: stages.stage(stages.clamp(record.petAtClose).stageIndex).name,
            tasks: TaskRecord.list(record.tasks, reading: .closed, zone: zone), away: record.away,
            returned: record.returned)
    }

    /// Closed without judgement: a rest, an away or a return day (no misses charged, no daily result).
    public var unjudged: Bool { rest || away || returned }
}
