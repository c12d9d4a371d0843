import PetCore

/// Starting again after the state file was set aside, and the record of it (petprogress(7) §5).
extension PetStore {
    /// Marks the last recovery acknowledged (`AcknowledgeProblems`), durably; nothing to do when
    /// there is none or it already is. Returns the recovery as it now stands.
    @discardableResult
    public func acknowledgeRecovery() throws(StoreError) -> Recovery? {
        try checkReady()
        let file = RecoveryFile(folder: folder)
        guard var recovery = file.read() else { return nil }
        if !recovery.acknowledged {
            recovery.acknowledged = true
            try file.write(recovery)
        }
        return recovery
    }

    /// The newest snapshot that decodes to a current or migrated world (read-only): a damaged or
    /// newer one is passed over for the next older.
    func newestLoadableSnapshot() throws(StoreError) -> (day: DayKey, world: PetWorld)? {
        for day in try generations.days() {
            guard let bytes = try generations.read(day), case .world(let world, _, _) = StateFile.decode(bytes) else {
                continue
            }
            return (day, world)
        }
        return nil
    }

    /// Where a start goes when the state file was set aside (petprogress(7) §5): the newest snapshot
    /// that loaded, brought forward to history's last close when history goes further (its pet
    /// from there); else the pet history recorded at its last close, with defaults; else empty.
    /// The recovery is recorded in `recovery.json`.
    func recover(from snapshot: (day: DayKey, world: PetWorld)?, historyEnd: DayKey?, now: Instant)
        throws(StoreError) -> (start: Loaded.Start, recovery: Recovery)
    {
        let start: Loaded.Start
        let recovery: Recovery
        if let snapshot, historyEnd.map({ end in snapshot.world.lastClosedDay.map { $0 >= end } ?? false }) ?? true {
            start = .state(snapshot.world)
            recovery = Recovery(source: .snapshot, day: snapshot.day, at: now)
        } else if let end = historyEnd, let last = try history.recent(1).last {
            start = .rebuilt(pet: last.petAtClose, lastClosedDay: end, carried: snapshot?.world)
            recovery = Recovery(source: snapshot == nil ? .history : .snapshot, day: snapshot?.day ?? end, at: now)
        } else {
            start = .empty(lastClosedDay: historyEnd)
            recovery = Recovery(source: .empty, day: nil, at: now)
        }
        try RecoveryFile(folder: folder).write(recovery)
        return (start, recovery)
    }
}
