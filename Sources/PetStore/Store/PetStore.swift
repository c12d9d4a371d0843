import LinuxKit
import PetCore

/// The durable local file store (petprogress(7) §5): one atomically replaced `state.json`, append-only
/// history per year, a directory lock. Owned by the daemon's single-threaded loop; not thread-safe.
///
/// Every `save` and `closeDays` is durable before it returns. When one throws, the state
/// file on disk is what it was before the call (unless `StoreError.stateReplaced`), so the caller
/// keeps its previous `PetWorld` in memory and reports `StorageFailure`.
public final class PetStore {
    /// The data directory.
    public var directory: String { folder.path }
    let folder: DataFolder
    private let lock: DirectoryLock
    let history: HistoryFiles
    let generations: Generations
    private var statePath: String { folder.path(StateFile.name) }

    /// Set by `load(now:)`: the last day recorded in history.
    public private(set) var lastHistoryDay: DayKey?
    /// The last closed day of the state on disk (for an empty start, the day it adopted):
    /// history records after it are unacknowledged and dropped by a repair.
    private(set) var durableLastClosedDay: DayKey?
    private var loaded = false
    /// History may hold records after the state file's last closed day (a failed closeout).
    private var historyNeedsRepair = false
    /// Where history ends now, written into each state file (see `HistoryTail`).
    private var tail: HistoryTail?
    private var closed = false
    private var snapshotFailure: String?

    private init(folder: DataFolder, lock: DirectoryLock) {
        self.folder = folder
        self.lock = lock
        self.history = HistoryFiles(folder: folder)
        self.generations = Generations(folder: folder)
    }

    deinit { if !closed { lock.release() } }

    /// Opens the data directory: creates it (0700) if missing and takes its exclusive lock.
    /// Throws `.locked` when another process holds it, `.unsafe` when the directory is not the
    /// user's; one of the user's that group or others may write to loses those bits first, and
    /// `notice` gets the sentence saying so. Reads and changes nothing else.
    public static func open(directory: String, notice: (String) -> Void = { _ in }) throws(StoreError) -> PetStore {
        let (folder, repaired) = try DataFolder.open(directory)
        if let repaired { notice(repaired) }
        return PetStore(folder: folder, lock: try DirectoryLock.acquire(in: folder))
    }

    /// Releases the lock. The store must not be used afterwards.
    public func close() {
        guard !closed else { return }
        closed = true
        lock.release()
    }

    // MARK: Loading

    /// Reads the state and brings history in line with it (petprogress(7) §5):
    /// - a newer schema anywhere refuses with `.newerSchema`, touching nothing;
    /// - an unparsable state file is moved to `state.json.corrupt-<UTC timestamp of now>` (never
    ///   overwritten or deleted) and the start recovers (`recover`), with a problem sentence to
    ///   log; so does a missing state file once a recovery was recorded (a crash before its first save);
    /// - an older schema is migrated in memory (the original bytes are kept as `state.json.schema<N>`);
    /// - a torn last history line is cut; records after the state's last closed day are dropped.
    /// Reads only the tails of history files, and none at all when history ends where the state
    /// file says it did.
    public func load(now: Instant) throws(StoreError) -> Loaded {
        try StoreSwap.finish(in: folder)
        let original = try folder.readIfPresent(StateFile.name)
        let found = try decode(original)
        // A damaged state file, or a missing one after a recovery was recorded: a crash came between
        // setting a damaged file aside and the first save after it.
        var recovery = RecoveryFile(folder: folder).read()
        let recovering = found.unreadable != nil || (original == nil && recovery != nil)
        let fallback = recovering ? try newestLoadableSnapshot() : nil
        let repair = try HistoryRepair.plan(history, authority: found.authority, hint: found.tail)
        // Nothing above wrote; from here on the store may change files.
        try removeLeftoverTemporary()
        var problems: [String] = []
        var movedTo: String?
        var start: Loaded.Start = found.world.map { .state($0) } ?? .empty(lastClosedDay: repair.lastDay)
        if recovering {
            // Recorded before the file is moved aside: a crash in between recovers again.
            let recovered = try recover(from: fallback, historyEnd: repair.lastDay, now: now)
            start = recovered.start
            recovery = recovered.recovery
            let what = "\(recovered.recovery.sentence) Lost: \(recovered.recovery.lost)."
            if let why = found.unreadable, let original {
                let target = try quarantine(now: now)
                movedTo = target
                problems.append(
                    "The state file \(statePath) could not be read (\(why)); it was moved to \(target) (\(original.count) bytes kept). \(what)"
                )
            } else {
                problems.append("The state file \(statePath) is missing after an interrupted recovery. \(what)")
            }
        }
        if let from = found.migratedFrom, let original { try keepOriginal(original, schema: from) }
        try apply(repair)
        problems += repair.sentences(history)
        durableLastClosedDay = found.world.map(\.lastClosedDay) ?? repair.lastDay
        loaded = true
        return Loaded(
            start: start, problems: problems, quarantinedTo: movedTo, migratedFrom: found.migratedFrom,
            recovery: recovery)
    }

    /// What the state file held: a world (perhaps migrated from an older schema), or why it
    /// cannot be used; all nil when there is no file.
    private struct Found {
        var world: PetWorld?
        var migratedFrom: Int?
        var tail: HistoryTail?
        var unreadable: String?

        /// History's authority for `HistoryRepair.plan`: the state's last closed day when a state
        /// was read (`.some(nil)` when it has closed none), nil for an empty start.
        var authority: DayKey?? { world.map { .some($0.lastClosedDay) } ?? nil }
    }

    /// Decodes the state file's bytes; a newer schema refuses the whole load.
    private func decode(_ original: [UInt8]?) throws(StoreError) -> Found {
        switch original.map(StateFile.decode) {
        case .newer(let v)?:
            throw StoreError(
                .newerSchema(found: v, supported: Schema.current),
                "\(statePath) was written by a newer Pet Progress (schema \(v); this version reads up to \(Schema.current)). Nothing was changed; run the newer version, or point --data-dir elsewhere."
            )
        case .world(let world, let from, let tail)?: return Found(world: world, migratedFrom: from, tail: tail)
        case .unreadable(let why)?: return Found(unreadable: why)
        case nil: return Found()
        }
    }

    /// Removes the temporary file an interrupted save left. Only when there is one: unlink fails
    /// with EROFS even for a missing file, and a read-only directory should still load, its saves
    /// then failing clearly.
    private func removeLeftoverTemporary() throws(StoreError) {
        for name in [StateFile.temporaryName, Generations.temporaryName, RecoveryFile.temporaryName]
        where folder.exists(name) {
            try folder.unlink(name)
        }
    }

    // MARK: Saving

    /// Makes `world` the durable state: temp file in the directory → fsync → rename → fsync the
    /// directory. Returns only once durable. Refuses (`.inconsistent`) a world whose last closed
    /// day is before history's last day: saving it would drop history at the next load.
    public func save(_ world: PetWorld) throws(StoreError) {
        try checkReady()
        if let problem = world.boundsProblem() { throw .outOfBounds(problem, in: statePath) }
        if historyNeedsRepair { try repairHistory() }
        if let recorded = lastHistoryDay, !(world.lastClosedDay.map { $0 >= recorded } ?? false) {
            throw StoreError(
                .inconsistent,
                "Refusing to save a state whose last closed day (\(world.lastClosedDay.map(String.init(describing:)) ?? "none")) is before history's last day (\(recorded)); that would drop history."
            )
        }
        try replaceState(world)
    }

    /// A closeout as one durable step (petprogress(7) §3.1): appends the records of the closed days to
    /// history (fsynced), then replaces the state. A crash at any point leaves each day either
    /// fully closed or not: records after the state's last closed day are dropped at the next
    /// load. A record for a day already in history is skipped, so no day is recorded twice.
    public func closeDays(_ records: [DayRecord], world: PetWorld) throws(StoreError) {
        try checkReady()
        // Nothing is appended unless every record and the state after them would load.
        if let problem = world.boundsProblem() { throw .outOfBounds(problem, in: statePath) }
        for record in records {
            if let problem = record.boundsProblem() {
                throw .outOfBounds(problem, in: "the history record of \(record.day.key)")
            }
        }
        let closedBefore = durableLastClosedDay
        if historyNeedsRepair { try repairHistory() }
        var fresh: [DayRecord] = []
        var previous = lastHistoryDay
        for record in records where previous.map({ record.day.key > $0 }) ?? true {
            fresh.append(record)
            previous = record.day.key
        }
        if let newest = fresh.last?.day.key, !(world.lastClosedDay.map { $0 >= newest } ?? false) {
            throw StoreError(
                .inconsistent,
                "Refusing a closeout whose records run past the state's last closed day; they would be dropped at the next load."
            )
        }
        if !fresh.isEmpty {
            do {
                tail = try history.append(fresh, tail: tail)
            } catch {
                historyNeedsRepair = true
                throw error
            }
            lastHistoryDay = previous
        }
        do {
            try save(world)
        } catch {
            if !error.stateReplaced, !fresh.isEmpty { historyNeedsRepair = true }
            throw error
        }
        if let day = world.lastClosedDay, day != closedBefore { writeSnapshot(world, day: day) }
    }

    /// Keeps `world`, the durable state, as `state-before-<its open day>.json` before a catch-up
    /// that closes more than one day (petprogress(7) §3.1), so that `Restore` can undo it.
    public func keepBeforeCatchUp(_ world: PetWorld) throws(StoreError) {
        try checkReady()
        if let problem = world.boundsProblem() { throw .outOfBounds(problem, in: "the snapshot before a catch-up") }
        try generations.writeBeforeCatchUp(StateFile.encode(world, tail: tail), openDay: world.openDay.key)
    }

    /// Why the last snapshot could not be written, once (for the daemon's log); nil when it was.
    public func takeSnapshotFailure() -> String? {
        defer { snapshotFailure = nil }
        return snapshotFailure
    }

    /// Writes the state just committed as the closed day's snapshot (petprogress(7) §5). Only after
    /// the commit, through its own temporary file: a crash or a failure here leaves `state.json`,
    /// already durable, as it is, and costs only this snapshot — so a failure is reported, not
    /// thrown (the closeout did happen).
    private func writeSnapshot(_ world: PetWorld, day: DayKey) {
        do {
            try generations.write(StateFile.encode(world, tail: tail), day: day)
        } catch {
            snapshotFailure = "The snapshot \(generations.path(day)) could not be written: \(error.message)"
        }
    }

    /// `closeDays` for the value `PetWorld.closeDueDays` returns (neutral days have no record).
    public func closeDays(_ closeouts: [Closeout], world: PetWorld) throws(StoreError) {
        try closeDays(closeouts.compactMap(\.record), world: world)
    }

    // MARK: Internals

    func checkReady() throws(StoreError) {
        guard !closed else { throw StoreError(.inconsistent, "The store at \(directory) is closed.") }
        guard loaded else {
            throw StoreError(.inconsistent, "The store at \(directory) must be loaded before it is written.")
        }
    }

    private func replaceState(_ world: PetWorld) throws(StoreError) {
        let bytes = StateFile.encode(world, tail: tail)
        do {
            try writeDurably(bytes)
        } catch {
            if error.stateReplaced { durableLastClosedDay = world.lastClosedDay }
            throw error
        }
        durableLastClosedDay = world.lastClosedDay
    }

    /// The atomic replace (LinuxKit's): before the rename a failure leaves the old file untouched
    /// (and the temp file removed); after it, only the directory fsync can fail, flagged
    /// `stateReplaced`.
    private func writeDurably(_ bytes: [UInt8]) throws(StoreError) {
        do {
            try AtomicReplace.write(
                bytes, to: StateFile.name, in: folder.file, through: .named(StateFile.temporaryName))
        } catch {
            let failure = StoreError(error.failure)
            throw error.replaced ? failure.replacingState() : failure
        }
    }

    /// Drops records after the state file's last closed day, as a load would.
    private func repairHistory() throws(StoreError) {
        try apply(try HistoryRepair.plan(history, authority: .some(durableLastClosedDay)))
        historyNeedsRepair = false
    }

    /// Carries out a repair and adopts where history then ends.
    private func apply(_ repair: HistoryRepair) throws(StoreError) {
        try repair.apply(history)
        lastHistoryDay = repair.lastDay
        tail = repair.tail
    }

    /// Moves `state.json` aside to `state.json.corrupt-<UTC timestamp>[-n]`; returns the new path.
    private func quarantine(now: Instant) throws(StoreError) -> String {
        let base = StateFile.name + ".corrupt-" + utcStamp(now)
        var target = base
        var n = 1
        while folder.exists(target) {
            target = "\(base)-\(n)"
            n += 1
        }
        try folder.rename(StateFile.name, target)
        try folder.fsync()
        return folder.path(target)
    }

    /// Keeps the pre-migration bytes once, so a migration can never cost the original.
    private func keepOriginal(_ bytes: [UInt8], schema: Int) throws(StoreError) {
        let name = "\(StateFile.name).schema\(schema)"
        guard !folder.exists(name) else { return }
        let file = try folder.open(name, [.writeOnly, .create, .exclusive])
        defer { file.close() }
        try io(file.writeAll(bytes))
        try io(file.fsync())
        try folder.fsync()
    }
}
