/// The widget entry (petprogress(7) §6.2): the pet part (the visible snapshot, or the live pet for a
/// timeline entry) and one day's task part read at an instant.
public struct WidgetEntry: Hashable, Sendable {
    /// The tick the pet part was taken at (Unix seconds).
    public var date: Instant
    /// The tick after `date`.
    public var nextDate: Instant
    /// The day the task part belongs to.
    public var dayKey: String
    public var pet: PetView
    public var tasksDone: Int
    public var tasksTotal: Int
    /// Empty strings when nothing is pending.
    public var nextTaskID: String
    public var nextTaskTitle: String
    /// The next task's effective `HH:MM`.
    public var nextTaskTime: String
    public var nextTaskOverdue: Bool
    /// The next task is due: at or past its effective instant (petprogress(7) §3).
    public var nextTaskDue: Bool
    /// Up to 3 not-done records, in order, starting with the next task.
    public var upcoming: [TaskRecord]
    /// The entry's day is a rest day (petprogress(7) §3.1.1): part of the live task part.
    public var restDay: Bool
    /// One plain English sentence for screen readers.
    public var accessibleText: String

    public init(
        date: Instant, nextDate: Instant, dayKey: String, pet: PetView, tasksDone: Int, tasksTotal: Int,
        nextTaskID: String, nextTaskTitle: String, nextTaskTime: String, nextTaskOverdue: Bool,
        upcoming: [TaskRecord], restDay: Bool, accessibleText: String, nextTaskDue: Bool = false
    ) {
        self.date = date
        self.nextDate = nextDate
        self.dayKey = dayKey
        self.pet = pet
        self.tasksDone = tasksDone
        self.tasksTotal = tasksTotal
        self.nextTaskID = nextTaskID
        self.nextTaskTitle = nextTaskTitle
        self.nextTaskTime = nextTaskTime
        self.nextTaskOverdue = nextTaskOverdue
        self.nextTaskDue = nextTaskDue
        self.upcoming = upcoming
        self.restDay = restDay
        self.accessibleText = accessibleText
    }

    /// The entry for `pet` at tick `date` (`nextDate` the tick after it), with the day's `tasks`
    /// read live at `at`: `next` is the first not-done task in day order, `due` and `overdue` by
    /// `rule` at `at`.
    public init(
        date: Instant, nextDate: Instant, pet: PetState, dayKey: DayKey, tasks: [TaskItem], restDay: Bool,
        at: Instant, rule: DueRule, zone: Zone, stages: StageTable, iconPath: (Stage) -> String
    ) {
        let pending = tasks.pendingInDayOrder(first: 3)
        let next = pending.first
        let nextTime = next.map { TaskRecord.effectiveTime(of: $0, zone: zone) } ?? ""
        let nextDue = next.map { rule.isDue($0, at: at) } ?? false
        let nextOverdue = next.map { rule.isOverdue($0, at: at) } ?? false
        let spoken = next.map {
            AccessibleText.Next(time: nextTime, title: $0.title, overdue: nextOverdue, due: nextDue)
        }
        let done = tasks.count { $0.isDone }
        self.init(
            date: date, nextDate: nextDate, dayKey: dayKey.description,
            pet: PetView(pet, stages: stages, iconPath: iconPath), tasksDone: done, tasksTotal: tasks.count,
            nextTaskID: next?.id ?? "", nextTaskTitle: next?.title ?? "", nextTaskTime: nextTime,
            nextTaskOverdue: nextOverdue,
            upcoming: pending.map { TaskRecord($0, isNext: $0.id == next?.id, rule: rule, at: at, zone: zone) },
            restDay: restDay,
            accessibleText: AccessibleText.sentence(
                pet: pet, stages: stages, done: done, total: tasks.count, next: spoken, restDay: restDay),
            nextTaskDue: nextDue)
    }
}
