import LinuxKit
import PetCore

/// Making a world durable (petprogress(7) §5): a save, a closeout's history and state as one step,
/// the snapshots beside them, and history repaired before anything is added to it.
extension PetStore {
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
}
