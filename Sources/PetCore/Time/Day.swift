/// A day of the plan: its key and its half-open interval `[start, end)` (petprogress(7) §3).
public struct Day: Hashable, Sendable {
    public let key: DayKey
    public let start: Instant
    public let end: Instant

    public init(key: DayKey, start: Instant, end: Instant) {
        self.key = key
        self.start = start
        self.end = end
    }

    public func contains(_ t: Instant) -> Bool { start <= t && t < end }
}
