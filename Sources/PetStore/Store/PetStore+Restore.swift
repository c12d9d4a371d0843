import LinuxKit
import PetCore

/// Replacing the whole store by an export's contents (petprogress(7) §5).
extension PetStore {
    /// Replaces the whole store by `backup` in one durable step (`StoreSwap`), the current data
    /// kept in `import-backup-<UTC timestamp of now>/` inside the data directory, then loads it
    /// afresh. Returns where the previous data went, and what the load found.
    public func restore(_ backup: Backup, now: Instant) throws(StoreError) -> (kept: String, loaded: Loaded) {
        try checkReady()
        var files: [(name: String, bytes: [UInt8])] = []
        for record in backup.history {
            let line = try HistoryLine.encode(record)
            let name = HistoryFiles.name(year: record.day.key.year)
            if files.last?.name == name { files[files.count - 1].bytes += line } else { files.append((name, line)) }
        }
        files.append((StateFile.name, StateFile.encode(backup.world)))
        let kept = try StoreSwap.replace(in: folder, with: files, stamp: utcStamp(now))
        return (kept, try load(now: now))
    }
}

/// An import's new store, staged a record at a time (petprogress(7) §5: records are checked and
/// staged as they are read, so the memory an import takes does not grow with its history): each
/// record's history line appended to its year's file in the swap's staged directory, then the
/// state, then the whole made the store in one durable step (`PetStore.commitImport`). Written by
/// one thread at a time (the daemon's import thread, then the loop after joining it).
public final class ImportStage: @unchecked Sendable {
    let stage: DataFolder
    private var file: (name: String, descriptor: FileDescriptor)?
    private var pending: [UInt8] = []
    private var finished = false

    init(_ stage: DataFolder) { self.stage = stage }

    deinit { file?.descriptor.close() }

    /// Appends `record` (days ascending, as `Backup.read(mapped:…)` hands them on).
    public func append(_ record: DayRecord) throws(StoreError) {
        let name = HistoryFiles.name(year: record.day.key.year)
        if file?.name != name {
            try closeFile()
            file = (name, try stage.open(name, [.writeOnly, .create, .exclusive]))
        }
        pending += try HistoryLine.encode(record)
        if pending.count >= 1 << 20 { try flush() }
    }

    private func flush() throws(StoreError) {
        guard let file, !pending.isEmpty else { return }
        try io(file.descriptor.writeAll(pending))
        pending.removeAll(keepingCapacity: true)
    }

    private func closeFile() throws(StoreError) {
        guard let open = file else { return }
        try flush()
        try io(open.descriptor.fsync())
        open.descriptor.close()
        file = nil
    }

    /// The history written and the state beside it: staged whole.
    func finish(world: PetWorld) throws(StoreError) {
        guard !finished else { throw StoreError(.inconsistent, "An import was staged twice.") }
        finished = true
        try closeFile()
        let out = try stage.open(StateFile.name, [.writeOnly, .create, .exclusive])
        defer { out.close() }
        try io(out.writeAll(StateFile.encode(world)))
        try io(out.fsync())
    }
}

extension PetStore {
    /// Begins an import's new store in the swap's staged directory (whatever an earlier one left
    /// there is removed first).
    public func beginImport() throws(StoreError) -> ImportStage {
        try checkReady()
        return ImportStage(try StoreSwap.begin(in: folder))
    }

    /// Makes the staged history and `world` the store, in one durable step, the current data kept
    /// in `import-backup-<UTC timestamp of now>/`, then loads it afresh (as `restore(_:now:)`).
    public func commitImport(_ stage: ImportStage, world: PetWorld, now: Instant) throws(StoreError) -> (
        kept: String, loaded: Loaded
    ) {
        try checkReady()
        do {
            try stage.finish(world: world)
        } catch {
            abandonImport()
            throw error
        }
        let kept = try StoreSwap.commit(stage.stage, in: folder, stamp: utcStamp(now))
        return (kept, try load(now: now))
    }

    /// Removes a staged import that will not be committed.
    public func abandonImport() { StoreSwap.abandon(in: folder) }
}
