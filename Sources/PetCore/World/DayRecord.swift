/// A closed day as archived to history (petprogress(7) §3.1 step 3).
public struct DayRecord: Hashable, Sendable {
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
    /// Whether it closed as a rest day (petprogress(7) §3.1.1): no misses charged, no daily result.
    public let rest: Bool
    /// The daily result's own XP: +3, −3 or 0 (`daily_xp` on the bus).
    public let resultXP: Int
    /// Whether it closed as an away or a return day (petprogress(7) §3.1).
    public let presence: Presence

    public init(
        day: Day, tasks: [TaskItem], done: Int, total: Int, rate: Double, petAtOpen: PetState, petAtClose: PetState,
        xpChange: Int, rest: Bool, resultXP: Int, presence: Presence = .present
    ) {
        self.day = day
        self.tasks = tasks
        self.done = done
        self.total = total
        self.rate = rate
        self.petAtOpen = petAtOpen
        self.petAtClose = petAtClose
        self.xpChange = xpChange
        self.rest = rest
        self.resultXP = resultXP
        self.presence = presence
    }

    /// An away day: untouched after an untouched day, no misses charged, no daily result.
    public var away: Bool { presence == .away }
    /// A return day: touched after an untouched day, judged as a rest day.
    public var returned: Bool { presence == .returned }

    /// Whether the day was closed without judgement: a rest, an away or a return day (no misses
    /// charged, no daily result).
    public var unjudged: Bool { rest || away || returned }

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
