import PetCore
import PetStore

extension PetService {
    /// Everything the service reaches outside its own memory, passed in as values when it is made
    /// (the style of isowords' environments): the clock, the local zone, the store operations it
    /// uses, where signals go, the wake-up timer and the log. `Daemon.compose` wires them from the
    /// daemon's environment, live or a test's.
    public struct Environment {
        /// Reads the clock (real or simulated); once per refresh.
        public var now: () -> Instant
        /// Simulated seconds per real second of `now` (1 for the real clock).
        public var timeScale: Double = 1
        /// Resolves the local zone afresh (`TZ`, `/etc/localtime`, …): at start-up and whenever a
        /// zone file may have changed.
        public var localZone: () -> LocalZone
        /// Makes `world` the durable state (`PetStore.save`).
        public var save: (_ world: PetWorld) throws(StoreError) -> Void
        /// Archives closed days and saves `world`, as one durable step (`PetStore.closeDays`).
        public var closeDays: (_ closeouts: [Closeout], _ world: PetWorld) throws(StoreError) -> Void
        /// One closed day's record from history, nil when it has none.
        public var historyDay: (DayKey) throws(StoreError) -> DayRecord?
        /// The records of the closed days in a range, at most a page (`PetStore.history(in:)`).
        public var history: (HistoryRange) throws(StoreError) -> (records: [DayRecord], more: Bool)
        /// The records after a day (nil: from the first), ascending, at most `limit`, and whether
        /// more follow: a page of an export (`PetStore.history(after:limit:)`).
        public var historyAfter:
            (_ after: DayKey?, _ limit: Int) throws(StoreError) -> (records: [DayRecord], more: Bool) = {
                _, _ throws(StoreError) in ([], false)
            }
        /// Whether history holds any record.
        public var hasHistory: () -> Bool
        /// Replaces the whole store by a backup, keeping the current data; where it was kept, and
        /// what loading the new store found (`PetStore.restore`).
        public var restore: (_ backup: Backup, _ now: Instant) throws(StoreError) -> (kept: String, loaded: Loaded)
        /// Begins an import's staged store (`PetStore.beginImport`).
        public var beginImport: () throws(StoreError) -> ImportStage = { () throws(StoreError) in
            throw StoreError(.inconsistent, "No store to import into.")
        }
        /// Makes a staged import and its world the store, keeping the current data
        /// (`PetStore.commitImport`).
        public var commitImport:
            (_ stage: ImportStage, _ world: PetWorld, _ now: Instant) throws(StoreError) -> (
                kept: String, loaded: Loaded
            ) = {
                _, _, _ throws(StoreError) in throw StoreError(.inconsistent, "No store to import into.")
            }
        /// Where an import copies its document before reading it (`PetStore.importCopier`).
        public var importCopier: () throws(StoreError) -> ImportCopier = { () throws(StoreError) in
            throw StoreError(.inconsistent, "No store to import into.")
        }
        /// Removes a staged import that will not be committed (`PetStore.abandonImport`).
        public var abandonImport: () -> Void = {}
        /// Marks the last recovery acknowledged, durably (`PetStore.acknowledgeRecovery`).
        public var acknowledgeRecovery: () throws(StoreError) -> Recovery?
        /// The data directory, as `GetStatus` reports it.
        public var dataDirectory: String
        /// Where signals go.
        public var signals: ServiceSignals
        /// Told the next instant the service must wake at, whenever it may have changed.
        public var wake: (Instant) -> Void
        /// One line per event.
        public var log: (String) -> Void
        /// Whether more messages wait behind the call being handled (the connection's incoming
        /// queue): then its reply is held with theirs, for one save (`answer`).
        public var callsQueued: () -> Bool
        /// Keeps the durable state as the snapshot before a multi-day catch-up
        /// (`PetStore.keepBeforeCatchUp`).
        public var keepBeforeCatchUp: (_ world: PetWorld) throws(StoreError) -> Void = { _ throws(StoreError) in }
        /// The snapshots that can be restored, newest first (`PetStore.generationList`).
        public var generations: () throws(StoreError) -> [Generation] = { () throws(StoreError) in [] }
        /// One of them by name, nil when there is none (`PetStore.generation(named:)`).
        public var generation: (_ name: String) throws(StoreError) -> Generation? = { _ throws(StoreError) in nil }
        /// Restores one, or says what restoring it would set aside (`PetStore.restore(_:now:dryRun:)`).
        public var restoreGeneration:
            (_ generation: Generation, _ now: Instant, _ dryRun: Bool) throws(StoreError) -> RestoreOutcome = {
                _, _, _ throws(StoreError) in throw StoreError(.inconsistent, "No store to restore.")
            }
    }
}
