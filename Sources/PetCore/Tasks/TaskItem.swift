/// A task of one day (SPEC §3).
public struct TaskItem: Decodable, Hashable, Sendable {
    /// `YYYYMMDD-<serial>`; unique and never reused.
    public let id: String
    public var title: String
    /// The scheduled `HH:MM`.
    public var time: WallTime
    public var dayKey: DayKey
    /// The instant `time` means within the day's interval, fixed when the task is placed.
    public var scheduled: Instant
    /// Creation order: the serial the id was made from.
    public let order: UInt64
    public var completedAt: Instant?
    /// The mutation sequence number of the completion; 0 when not done.
    public var completedSeq: UInt64 = 0
    /// The XP the completion granted (2 on time, 1 late); 0 when not done.
    public var xp: Int = 0
    public var snoozedUntil: Instant?
    /// The template this task is an instance of; nil for a one-off.
    public var templateID: String?
    /// The template's repeat rule when it was instantiated; nil for a one-off.
    public var repeatRule: Repeat?

    public init(
        id: String, title: String, time: WallTime, dayKey: DayKey, scheduled: Instant, order: UInt64,
        templateID: String? = nil, repeatRule: Repeat? = nil
    ) {
        self.id = id
        self.title = title
        self.time = time
        self.dayKey = dayKey
        self.scheduled = scheduled
        self.order = order
        self.templateID = templateID
        self.repeatRule = repeatRule
    }

    public var isDone: Bool { completedAt != nil }

    /// The snoozed-until instant if set, else the scheduled instant.
    public var effective: Instant { snoozedUntil ?? scheduled }

    /// Not done and `now` is past its effective instant.
    public func isOverdue(at now: Instant) -> Bool { !isDone && now > effective }
}

extension Sequence<TaskItem> {
    /// A day's order: by effective instant, then by creation order (SPEC §3).
    public func inDayOrder() -> [TaskItem] {
        sorted { ($0.effective, $0.order) < ($1.effective, $1.order) }
    }

    /// The next task: the first not-done task in day order, overdue or not.
    public func nextTask() -> TaskItem? { inDayOrder().first { !$0.isDone } }
}
