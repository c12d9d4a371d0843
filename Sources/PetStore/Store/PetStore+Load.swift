import LinuxKit
import PetCore

/// Opening the state on disk (petprogress(7) §5): the state file read, migrated or set aside,
/// history brought in line with it, and what a start must know about both.
extension PetStore {
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
