/// Everything the daemon keeps between runs, as one value (petprogress(7) §5's `state.json`): the pet at the
/// open day's opening, settings, templates, rest days, the open and next day's tasks, the last
/// closed day and the counters. The live pet is derived, never stored, so undo cannot drift from the rules.
public struct PetWorld: Hashable, Sendable {
    public var settings: Settings
    /// The pet when the open day opened; the live pet replays the day's completions on top of it.
    public var openingPet: PetState
    public var openDay: Day
    /// Whether the open day was opened while now was inside it (a day the daemon ran in); a day
    /// that was not, and that holds no tasks, closes as neutral.
    public var openDayLive: Bool
    /// The open day's tasks, in creation order.
    public var tasks: [TaskItem]
    /// Tasks added in advance for the next day.
    public var tomorrow: [TaskItem]
    public var templates: [Template]
    /// The keys of the days marked as rest days (petprogress(7) §3.1.1), ascending, each once. Keys up to
    /// and including a closed day's leave at its closeout.
    public var restDays: [DayKey]
    /// The keys of the days from the open day on that an accepted change aimed at (petprogress(7)
    /// §3.1, "Away days"), ascending, each once. Keys up to and including a closed day's leave at
    /// its closeout.
    public var touchedDays: [DayKey] = []
    /// Whether the last closed day that had tasks ended touched; true before any such day (the
    /// user counts as present).
    public var lookBackTouched: Bool = true
    public var lastClosedDay: DayKey?
    /// The mutation sequence number: how many changes have been acknowledged.
    public var mutations: UInt64
    /// The last serial handed out for an id; ids are never reused.
    public var serial: UInt64
    /// The last task number handed out on the open day, and on the next day (petprogress(7) §3):
    /// a number is never reused within its day, even after its task is deleted.
    public var lastNumber: Int = 0
    public var lastTomorrowNumber: Int = 0
    /// What the widget's pet part shows: the live pet as of the latest tick reached (petprogress(7) §3.2);
    /// nil until the snapshot rule first runs.
    public var snapshot: VisibleSnapshot?

    public static let maxTasksPerDay = 200
    public static let maxTemplates = 100

    /// An empty state: a tadpole and the day containing `now`. `lastClosedDay` is history's last
    /// day when there is history, so the first open day comes after it.
    public init(now: Instant, zone: Zone, settings: Settings = Settings(), lastClosedDay: DayKey? = nil) {
        self.settings = settings
        self.openingPet = .hatchling
        self.openDay = DayCalendar.firstDay(
            containing: now, resetTime: settings.resetTime, zone: zone, after: lastClosedDay)
        self.openDayLive = true
        self.tasks = []
        self.tomorrow = []
        self.templates = []
        self.restDays = []
        self.lastClosedDay = lastClosedDay
        self.mutations = 0
        self.serial = 0
        self.snapshot = nil
    }

    /// A world from its parts, as the store reads one back.
    public init(
        settings: Settings, openingPet: PetState, openDay: Day, openDayLive: Bool, tasks: [TaskItem],
        tomorrow: [TaskItem], templates: [Template], restDays: [DayKey], lastClosedDay: DayKey?, mutations: UInt64,
        serial: UInt64, snapshot: VisibleSnapshot?, touchedDays: [DayKey] = [], lookBackTouched: Bool = true,
        lastNumber: Int = 0, lastTomorrowNumber: Int = 0
    ) {
        self.settings = settings
        self.openingPet = openingPet
        self.openDay = openDay
        self.openDayLive = openDayLive
        self.tasks = tasks
        self.tomorrow = tomorrow
        self.templates = templates
        self.restDays = restDays
        self.lastClosedDay = lastClosedDay
        self.mutations = mutations
        self.serial = serial
        self.snapshot = snapshot
        self.touchedDays = touchedDays
        self.lookBackTouched = lookBackTouched
        self.lastNumber = lastNumber
        self.lastTomorrowNumber = lastTomorrowNumber
    }

    /// The live pet: the opening state with the day's recorded awards replayed in completion order.
    public func livePet(_ stages: StageTable) -> PetState {
        // Sorting (sequence, XP) pairs, not the tasks themselves (large structs).
        let awards = tasks.lazy.filter(\.isDone).map { (seq: $0.completedSeq, xp: $0.xp) }.sorted { $0.seq < $1.seq }
        return Engine.apply(awards.map { .completion(xp: $0.xp) }, to: stages.clamp(openingPet), table: stages)
    }

    /// The next day as projected now, with the current reset time.
    public func nextDay(zone: Zone) -> Day {
        DayCalendar.day(after: openDay, resetTime: settings.resetTime, zone: zone)
    }

    /// The open day's next task: the first not-done task in day order.
    public var nextTask: TaskItem? { tasks.nextTask() }

    mutating func takeSerial() -> UInt64 {
        serial += 1
        return serial
    }

    /// The next number of the open day (`tomorrow` false) or of the next day.
    mutating func takeNumber(tomorrow: Bool = false) -> Int {
        if tomorrow {
            lastTomorrowNumber += 1
            return lastTomorrowNumber
        }
        lastNumber += 1
        return lastNumber
    }

    /// Counts one acknowledged change and returns its sequence number.
    mutating func recordMutation() -> UInt64 {
        mutations += 1
        return mutations
    }
}
