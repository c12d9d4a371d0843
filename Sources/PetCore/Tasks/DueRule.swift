/// What turns a pending task due and then overdue on its day (petprogress(7) §3): the grace and
/// the day's end. Due from its effective instant; overdue once it is past both that instant and its
/// scheduled instant plus the grace, unless the scheduled instant plus the grace lies at or past
/// the day's end (then it is never overdue: it is missed at the closeout).
public struct DueRule: Hashable, Sendable {
    /// The grace in seconds.
    public var grace: Instant
    /// The end of the task's day.
    public var dayEnd: Instant

    public init(graceMinutes: Int, dayEnd: Instant) {
        self.grace = Instant(graceMinutes) * 60
        self.dayEnd = dayEnd
    }

    /// The instant `task` turns due; nil when done.
    public func dueAt(_ task: TaskItem) -> Instant? { task.isDone ? nil : task.effective }

    /// The first instant (whole second) at which `task` is overdue; nil when never.
    public func overdueAt(_ task: TaskItem) -> Instant? {
        guard !task.isDone, task.scheduled + grace < dayEnd else { return nil }
        return max(task.effective, task.scheduled + grace) + 1
    }

    public func isDue(_ task: TaskItem, at now: Instant) -> Bool { dueAt(task).map { now >= $0 } ?? false }

    public func isOverdue(_ task: TaskItem, at now: Instant) -> Bool { overdueAt(task).map { now >= $0 } ?? false }
}
