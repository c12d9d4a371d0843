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
    /// How many `GetWidgetEntry`, `WidgetEntry` property and `GetPet` calls were answered from the
    /// kept encoded reply since the daemon started.
    public var replyCacheHits: UInt64

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
