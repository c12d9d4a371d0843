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
