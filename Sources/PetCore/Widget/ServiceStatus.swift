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
    /// The daemon's zone around `now` (petprogress(7) §7: "+20m" is a wall time in the daemon's
    /// zone, whatever the client's `TZ`): the offset from UTC in seconds east at `now`; nil from a
    /// daemon before this key.
    public var utcOffset: Int?
    /// The first instant within the next 25 hours at which that offset changes (a DST change), 0
    /// when it does not; `utcOffsetAfter` is the offset from then on.
    public var utcOffsetChange: Instant = 0
    public var utcOffsetAfter: Int = 0

    /// The daemon's wall clock at `t` (seconds since the epoch as if its zone were UTC), for an
    /// instant within a day of `now`; nil from a daemon that does not say its zone.
    public func daemonWallSeconds(at t: Instant) -> Instant? {
        guard let utcOffset else { return nil }
        let changed = utcOffsetChange != 0 && t >= utcOffsetChange
        return t + Instant(changed ? utcOffsetAfter : utcOffset)
    }

    /// The daemon's `HH:MM` at `t` (as `daemonWallSeconds` places it).
    public func daemonHHMM(at t: Instant) -> String? {
        guard let wall = daemonWallSeconds(at: t) else { return nil }
        let minutes = Int(((wall % 86_400) + 86_400) % 86_400) / 60
        let h = minutes / 60
        let m = minutes % 60
        return (h < 10 ? "0\(h)" : "\(h)") + ":" + (m < 10 ? "0\(m)" : "\(m)")
    }

    /// The offsets of `zone` around `now`, as `utcOffset`, `utcOffsetChange` and `utcOffsetAfter`
    /// carry them: the first change within 25 hours found by hours, then to the second (bounded).
    public mutating func describeZone(_ zone: Zone, around now: Instant) {
        let start = zone.offset(at: now)
        utcOffset = start
        utcOffsetChange = 0
        utcOffsetAfter = start
        var hour: Instant = 1
        while hour <= 25, zone.offset(at: now + hour * 3600) == start { hour += 1 }
        guard hour <= 25 else { return }
        // The change is in (now + (hour-1) h, now + hour h]: halve it down to the second.
        var low = now + (hour - 1) * 3600
        var high = now + hour * 3600
        while high - low > 1 {
            let middle = low + (high - low) / 2
            if zone.offset(at: middle) == start { low = middle } else { high = middle }
        }
        utcOffsetChange = high
        utcOffsetAfter = zone.offset(at: high)
    }
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
