import DBusKit
import PetCore
import PetStore

extension Daemon {
    /// What a daemon is composed from besides its code (`compose`): where its data lives, the bus
    /// it joins, the clock and zone it reads, its stage table and icons, how its store writes go,
    /// its wake-up timer and its log. `live` is the process's, from its options and environment; a
    /// test makes its own (an injected clock and zone, a private bus, writes counted and failed on
    /// request).
    public struct Setup {
        /// The data directory, opened and locked by `compose`.
        public var dataDirectory: String
        /// Connects to the bus the daemon serves on.
        public var connect: () throws -> Connection
        /// Reads the clock (real or simulated).
        public var now: () -> Instant
        /// Simulated seconds per real second of `now` (1 for the real clock), as `GetStatus` reports it.
        public var timeScale: Double = 1
        /// Resolves the local zone afresh (at start-up and whenever a zone file may have changed).
        public var localZone: () -> LocalZone
        /// The stage table in force and, when an override cannot be used, the problem sentence.
        public var stages: () -> (table: StageTable, problem: String?)
        /// Finds the installed icon of each stage of the table.
        public var icons: (StageTable) -> IconLocator
        /// Every store write passes through here, `perform` making it: the live setup just
        /// makes it; a test counts it, or fails it on request.
        public var write: (_ write: StoreWrite, _ perform: () throws(StoreError) -> Void) throws(StoreError) -> Void
        /// Told the next instant the service must wake at, whenever it may have changed.
        public var wake: (Instant) -> Void
        /// One line per event.
        public var log: (String) -> Void

        public init(
            dataDirectory: String, connect: @escaping () throws -> Connection, now: @escaping () -> Instant,
            localZone: @escaping () -> LocalZone, stages: @escaping () -> (table: StageTable, problem: String?),
            icons: @escaping (StageTable) -> IconLocator,
            write: @escaping (StoreWrite, () throws(StoreError) -> Void) throws(StoreError) -> Void,
            wake: @escaping (Instant) -> Void, log: @escaping (String) -> Void
        ) {
            self.dataDirectory = dataDirectory
            self.connect = connect
            self.now = now
            self.localZone = localZone
            self.stages = stages
            self.icons = icons
            self.write = write
            self.wake = wake
            self.log = log
        }

        /// The daemon's: the data directory its options or `variables` name (which must be the one
        /// `--expect-data-dir` names), the session bus, `clock`, the zone, stage file and icons
        /// `variables` point at, the store's writes as they are, and `wake` (its timer).
        public static func live(
            _ options: DaemonOptions, variables: [String: String], executable: String, clock: ServiceClock,
            wake: @escaping (Instant) -> Void, log: ServiceLog
        ) throws(StartFailure) -> Setup {
            guard let directory = options.dataDirectory ?? defaultDataDirectory(environment: variables) else {
                throw StartFailure("no data directory: set HOME or XDG_DATA_HOME, or pass --data-dir")
            }
            if let expected = options.expectedDataDirectory,
                let problem = ExpectedDataDirectory.mismatch(
                    directory, expected: expected, options: options, environment: variables)
            {
                throw StartFailure(problem, status: ExpectedDataDirectory.exitStatus)
            }
            var setup = Setup(
                dataDirectory: directory, connect: Connection.session, now: clock.now,
                localZone: { LocalZone.resolve(environment: variables) },
                stages: { StageFile.load(path: StageFile.path(environment: variables)) },
                icons: { IconLocator(stages: $0, environment: variables, executable: executable) },
                write: { _, perform throws(StoreError) in try perform() }, wake: wake, log: { log($0) })
            setup.timeScale = clock.scale
            return setup
        }
    }

    /// A write to the store: the state saved, or closed days archived with it.
    public enum StoreWrite: Equatable, Sendable {
        case save
        /// `records`: how many of the closeouts have a record (a day without tasks has none).
        case closeDays(records: Int)
        /// The state kept before a multi-day catch-up (`state-before-<day>.json`).
        case snapshotBeforeCatchUp
        /// A generation restored (or, on a dry run, looked at).
        case restore
    }
}
