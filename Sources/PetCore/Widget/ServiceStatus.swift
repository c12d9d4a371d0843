/// What the daemon reports about itself (`GetStatus`, petprogress(7) §6.1).
public struct ServiceStatus: Hashable, Sendable {
    public var version: String
    public var dataDirectory: String
    /// The last closed day's key, "" when no day has closed yet.
    public var lastClosedDay: String
    public var openDay: String
    /// The mutation sequence number.
    public var mutations: UInt64
    /// One sentence each: a corrupt file set aside, an invalid stage file, …
    public var problems: [String]
    /// The daemon's clock (Unix seconds): the real time, or the simulated one under `--now` /
    /// `--time-scale`, so a client can place what it computes on the daemon's time line.
    public var now: Instant
    /// Where the open day ends (Unix seconds): a client's "+20m" is refused at or past it.
    public var openDayEnd: Instant = 0
    /// Simulated seconds per real second of `now`: 1 for the real clock, else `--time-scale`.
    public var timeScale: Double = 1
    /// How many `GetWidgetEntry`, `WidgetEntry` property and `GetPet` calls were answered from the
    /// kept encoded reply since the daemon started.
    public var replyCacheHits: UInt64
    /// The last recovery from a damaged state file (petprogress(7) §5), "" when there never was one:
    /// the one line clients show while `problemsAcknowledged` is false.
    public var recovery: String = ""
    /// Where that start came from: `snapshot`, `history` or `empty` ("" when none).
    public var recoverySource: String = ""
    /// The closeout it came from, a day key ("" when none, or `empty`).
    public var recoveryDay: String = ""
    /// What was lost, e.g. `changes since the closeout of 2026-03-04` ("" when none).
    public var recoveryLost: String = ""
    /// When the recovery happened (Unix seconds; 0 when none).
    public var recoveryAt: Instant = 0
    /// Whether `AcknowledgeProblems` was called since that recovery.
    public var problemsAcknowledged: Bool = false
    /// The next day's key as projected now ("tomorrow": what `ListTasks("tomorrow")` and the rest
    /// days call it); "" from a daemon before this key.
    public var nextDay: String = ""
    /// The clock reads more than an hour before the open day's start (petprogress(7) §3.1, "The
    /// clock that went back"): nothing changes by itself until the user restores or acknowledges.
    public var clockBehind: Bool = false
    /// The clock's own local day while it is behind ("" otherwise).
    public var clockDay: String = ""
    /// The snapshot written before the catch-up that reached the open day, to restore ("" when none).
    public var clockBehindSnapshot: String = ""

    /// The recovery notice a client shows in one line until it is acknowledged, else nil.
    public var recoveryNotice: String? {
        recovery.isEmpty || problemsAcknowledged ? nil : "\(recovery) Lost: \(recoveryLost)."
    }

    public init(
        version: String, dataDirectory: String, lastClosedDay: String, openDay: String, mutations: UInt64,
        problems: [String], now: Instant, replyCacheHits: UInt64 = 0
    ) {
        self.version = version
        self.dataDirectory = dataDirectory
        self.lastClosedDay = lastClosedDay
        self.openDay = openDay
        self.mutations = mutations
        self.problems = problems
        self.now = now
        self.replyCacheHits = replyCacheHits
    }
}
