/// A closed day as archived to history (SPEC §3.1 step 3).
public struct DayRecord: Decodable, Hashable, Sendable {
    public let day: Day
    /// The day's tasks as they stood at closing, in day order.
    public let tasks: [TaskItem]
    public let done: Int
    public let total: Int
    /// `done / total`; 0 for a day with no tasks.
    public let rate: Double
    public let petAtOpen: PetState
    public let petAtClose: PetState
    /// The sum of the XP of every event the day caused: completions, misses and the daily result.
    public let xpChange: Int
    /// Whether it closed as a rest day (SPEC §3.1.1): no misses charged, no daily result.
    public let rest: Bool
    /// The daily result's own XP: +3, −3 or 0 (`daily_xp` on the bus). Named so that it sorts
    /// after `day` in the stored JSON, whose first bytes start-up reads the day key from.
    public let resultXP: Int

    /// A closeout is dated at the closed day's end, even when it runs later.
    public var closedAt: Instant { day.end }
}

/// One closeout that ran: the day closed, its record (nil for a neutral day), and the pet after it.
public struct Closeout: Hashable, Sendable {
    public let day: Day
    public let record: DayRecord?
    public let petAfter: PetState

    /// The instant the closeout is dated at: the closed day's end.
    public var date: Instant { day.end }
}
