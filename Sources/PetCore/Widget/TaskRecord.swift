/// A task as `ListTasks` and the entry's `upcoming` describe it (petprogress(7) §6.2).
public struct TaskRecord: Hashable, Sendable {
    public var id: String
    public var title: String
    /// The scheduled `HH:MM`.
    public var time: String
    /// The snoozed-until wall time when snoozed, else `time`.
    public var effectiveTime: String
    public var dayKey: String
    public var done: Bool
    /// Unix seconds; 0 when not done.
    public var completedAt: Instant
    /// The mutation sequence number of the completion; 0 when not done.
    public var completedSeq: UInt64
    /// Unix seconds; 0 when not snoozed.
    public var snoozedUntil: Instant
    /// The instant the scheduled time means on its day (Unix seconds).
    public var scheduledAt: Instant
    /// Not done and at or past its effective instant (petprogress(7) §3).
    public var due: Bool
    /// Not done, past its effective instant and past its scheduled instant plus the grace.
    public var overdue: Bool
    /// When the task turns due and overdue (Unix seconds; 0 when never): no signal announces
    /// either, so a client sets one timer.
    public var dueAt: Instant
    public var overdueAt: Instant
    public var isNext: Bool
    /// The completion's award; 0 when not done.
    public var xp: Int
    /// `""` for a one-off, else the template's rule.
    public var repeatRule: String
    /// `""` for a one-off.
    public var templateID: String
    /// The task's number on its day (petprogress(7) §3); 0 in a record from before numbers.
    public var number: Int = 0

    public init(
        id: String, title: String, time: String, effectiveTime: String, dayKey: String, done: Bool,
        completedAt: Instant, completedSeq: UInt64, snoozedUntil: Instant, scheduledAt: Instant, overdue: Bool,
        isNext: Bool, xp: Int, repeatRule: String, templateID: String, due: Bool = false, dueAt: Instant = 0,
        overdueAt: Instant = 0
    ) {
        self.id = id
        self.title = title
        self.time = time
        self.effectiveTime = effectiveTime
        self.dayKey = dayKey
        self.done = done
        self.completedAt = completedAt
        self.completedSeq = completedSeq
        self.snoozedUntil = snoozedUntil
        self.scheduledAt = scheduledAt
        self.overdue = overdue
        self.due = due
        self.dueAt = dueAt
        self.overdueAt = overdueAt
        self.isNext = isNext
        self.xp = xp
        self.repeatRule = repeatRule
        self.templateID = templateID
    }

    /// The snoozed-until instant, else the scheduled one.
    public var effectiveAt: Instant { snoozedUntil != 0 ? snoozedUntil : scheduledAt }

    /// How a day's list is read: the open day (or a tick of the timeline) computes `is_next`, `due`
    /// and `overdue` at an instant; tomorrow's planned tasks have them false but carry the instants
    /// `rule` gives; closed days have neither.
    public enum Reading: Hashable, Sendable {
        case live(at: Instant, rule: DueRule)
        case planned(rule: DueRule)
        case closed
    }

    /// The record of `task`; `rule`, when given, fills `due_at` and `overdue_at`, and with `at`
    /// also `due` and `overdue`.
    public init(_ task: TaskItem, isNext: Bool, rule: DueRule?, at now: Instant?, zone: Zone) {
        let dueAt = rule?.dueAt(task)
        let overdueAt = rule?.overdueAt(task)
        self.init(
            task, isNext: isNext, overdue: now.flatMap { n in overdueAt.map { n >= $0 } } ?? false, zone: zone)
        due = now.flatMap { n in dueAt.map { n >= $0 } } ?? false
        self.dueAt = dueAt ?? 0
        self.overdueAt = overdueAt ?? 0
    }

    /// The record of `task`.
    public init(_ task: TaskItem, isNext: Bool, overdue: Bool, zone: Zone) {
        self.init(
            id: task.id, title: task.title, time: task.time.description,
            effectiveTime: Self.effectiveTime(of: task, zone: zone), dayKey: task.dayKey.description,
            done: task.isDone, completedAt: task.completedAt ?? 0, completedSeq: task.isDone ? task.completedSeq : 0,
            snoozedUntil: task.snoozedUntil ?? 0, scheduledAt: task.scheduled, overdue: overdue, isNext: isNext,
            xp: task.isDone ? task.xp : 0,
            repeatRule: task.repeatRule?.description ?? "", templateID: task.templateID ?? "")
        self.number = task.number
    }

    /// A day's records in day order (effective instant, then creation order).
    public static func list(_ tasks: [TaskItem], reading: Reading, zone: Zone) -> [TaskRecord] {
        let ordered = tasks.inDayOrder()
        switch reading {
        case .closed:
            return ordered.map { TaskRecord($0, isNext: false, overdue: false, zone: zone) }
        case .planned(let rule):
            return ordered.map { TaskRecord($0, isNext: false, rule: rule, at: nil, zone: zone) }
        case .live(let at, let rule):
            let nextID = ordered.first { !$0.isDone }?.id
            return ordered.map { TaskRecord($0, isNext: $0.id == nextID, rule: rule, at: at, zone: zone) }
        }
    }

    /// The effective time as `HH:MM`: the snoozed-until wall time when snoozed, else the task's
    /// own time as the user gave it (not re-derived from the instant, so a gap or a zone change
    /// does not rewrite what the user typed).
    public static func effectiveTime(of task: TaskItem, zone: Zone) -> String {
        guard let until = task.snoozedUntil else { return task.time.description }
        return zone.wallTime(at: until).description
    }
}
