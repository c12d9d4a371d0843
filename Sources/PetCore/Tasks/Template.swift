/// A recurring task (petprogress(7) §3): each matching day gets an instance when it opens.
public struct Template: Hashable, Sendable {
    /// `t-<serial>`.
    public let id: String
    public var title: String
    public var time: WallTime
    public var repeatRule: Repeat
    /// The first day that may get an instance (the day it was added for).
    public let firstDay: DayKey
    public let order: UInt64

    public init(id: String, title: String, time: WallTime, repeatRule: Repeat, firstDay: DayKey, order: UInt64) {
        self.id = id
        self.title = title
        self.time = time
        self.repeatRule = repeatRule
        self.firstDay = firstDay
        self.order = order
    }

    /// Whether the day with this key gets an instance.
    public func applies(to key: DayKey) -> Bool { key >= firstDay && repeatRule.matches(key.weekday) }
}
