/// A task of one day (petprogress(7) §3).
public struct TaskItem: Hashable, Sendable {
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
    /// The XP the completion granted (2 on time, 1 early or late); 0 when not done.
    public var xp: Int = 0
    public var snoozedUntil: Instant?
    /// The template this task is an instance of; nil for a one-off.
    public var templateID: String?
    /// The template's repeat rule when it was instantiated; nil for a one-off.
    public var repeatRule: Repeat?
    /// What a person types to name it: 1, 2, 3… in the order tasks were added to its day, never
    /// reused within the day (petprogress(7) §3).
    public var number: Int

    public init(
        id: String, title: String, time: WallTime, dayKey: DayKey, scheduled: Instant, order: UInt64,
        templateID: String? = nil, repeatRule: Repeat? = nil, number: Int = 0
    ) {
        self.id = id
        self.title = title
        self.time = time
        self.dayKey = dayKey
        self.scheduled = scheduled
        self.order = order
        self.templateID = templateID
        self.repeatRule = repeatRule
        self.number = number
    }

    public var isDone: Bool { completedAt != nil }

    /// The snoozed-until instant if set, else the scheduled instant.
    public var effective: Instant { snoozedUntil ?? scheduled }
}

extension TaskItem {
    /// Whether this task comes before `other` in a day's order: by effective instant, then by
    /// creation order (petprogress(7) §3).
    public func precedesInDay(_ other: TaskItem) -> Bool {
        (effective, order) < (other.effective, other.order)
    }
}

extension Sequence<TaskItem> {
    /// A day's order: by effective instant, then by creation order (petprogress(7) §3).
    public func inDayOrder() -> [TaskItem] {
        let items = Array(self)
        // Sorting positions rather than the tasks: a task is a large struct, and moving them was
        // most of a widget entry's cost (`memmove` 29 % in a profile; docs/RELIABILITY.md §1).
        return items.indices.sorted { items[$0].precedesInDay(items[$1]) }.map { items[$0] }
    }

    /// The first `count` not-done tasks in day order: `inDayOrder().filter { !$0.isDone }.prefix(count)`
    /// in one pass, without ordering the whole day (the widget entry shows at most three).
    public func pendingInDayOrder(first count: Int) -> [TaskItem] {
        guard count > 0 else { return [] }
        var kept: [TaskItem] = []
        kept.reserveCapacity(count + 1)
        for task in self where !task.isDone {
            if kept.count == count, let last = kept.last, !task.precedesInDay(last) { continue }
            // After any equal task, as the stable sort of `inDayOrder` places it.
            kept.insert(task, at: kept.firstIndex { task.precedesInDay($0) } ?? kept.count)
            if kept.count > count { kept.removeLast() }
        }
        return kept
    }

    /// The next task: the first not-done task in day order, overdue or not.
    public func nextTask() -> TaskItem? { pendingInDayOrder(first: 1).first }
}
