import LinuxKit
import PetCore

/// One snapshot that can be restored (petprogress(7) §5, `ListGenerations`).
public struct Generation: Sendable {
    public enum Kind: String, Sendable {
        /// `state-YYYY-MM-DD.json`, written at a closeout.
        case closeout
        /// `state-before-YYYY-MM-DD.json`, written before a multi-day catch-up.
        case beforeCatchUp = "before-catch-up"
        /// `import-backup-<stamp>/`, the data an import or a restore replaced.
        case importBackup = "import-backup"
    }

    /// The name `Restore` takes: the file's or the directory's name.
    public let name: String
    public let kind: Kind
    /// The state it holds.
    public let world: PetWorld
    /// When it was written (the file's modification time, Unix seconds).
    public let writtenAt: Int64
}

/// What a restore did, or would do (`Restore`, petprogress(7) §5).
public struct RestoreOutcome: Sendable {
    /// The closed days whose history records are set aside (after the generation's last closed day).
    public var daysSetAside: Int
    public var firstDaySetAside: DayKey?
    public var lastDaySetAside: DayKey?
    /// Where the replaced data was kept ("" on a dry run).
    public var keptIn: String
    /// What loading the restored store found (nil on a dry run).
    public var loaded: Loaded?
}

extension PetStore {
    /// The snapshots that can be restored, newest first: by their open day, then their last
    /// closed day, then when they were written. Unreadable ones are left out.
    public func generationList() throws(StoreError) -> [Generation] {
        try checkReady()
        var found: [Generation] = []
        for name in try folder.names() {
            if let generation = try generation(named: name) { found.append(generation) }
        }
        return found.sorted {
            ($0.world.openDay.key, $0.world.lastClosedDay ?? CivilDate(daysSinceEpoch: -1_000_000), $0.writtenAt, $0.name)
                > ($1.world.openDay.key, $1.world.lastClosedDay ?? CivilDate(daysSinceEpoch: -1_000_000), $1.writtenAt, $1.name)
        }
    }

    /// The generation called `name`, nil when there is none by that name or it cannot be read.
    /// Only the store's own names are looked at: nothing outside the data directory is reached.
    public func generation(named name: String) throws(StoreError) -> Generation? {
        guard name.utf8.count <= 64, !name.contains("/"), let kind = Self.kind(of: name) else { return nil }
        let bytes: [UInt8]?
        let written: Int64
        do {
            if kind == .importBackup {
                guard folder.exists(name) else { return nil }
                let sub = try folder.folder(name)
                guard let file = try sub.openIfPresent(StateFile.name) else { return nil }
                defer { file.close() }
                written = (try? file.status().modified) ?? 0
                bytes = try io(file.readAll(limit: 64 << 20))
            } else {
                guard let file = try folder.openIfPresent(name) else { return nil }
                defer { file.close() }
                written = (try? file.status().modified) ?? 0
                bytes = try io(file.readAll(limit: 64 << 20))
            }
        } catch {
            return nil
        }
        guard let bytes, case .world(let world, _, _) = StateFile.decode(bytes) else { return nil }
        return Generation(name: name, kind: kind, world: world, writtenAt: written)
    }

    /// What a name says a generation is, nil for any other name.
    static func kind(of name: String) -> Generation.Kind? {
        if name.hasPrefix("import-backup-") { return .importBackup }
        guard name.hasPrefix("state-"), name.hasSuffix(".json") else { return nil }
        let middle = name.dropFirst("state-".count).dropLast(".json".count)
        if middle.hasPrefix("before-") {
            let key = String(middle.dropFirst("before-".count))
            return DayKey(parsing: key)?.description == key ? .beforeCatchUp : nil
        }
        return DayKey(parsing: String(middle))?.description == String(middle) ? .closeout : nil
    }

    /// Restores `generation` (petprogress(7) §5, "Restore"): the store becomes its state, with the
    /// history up to its last closed day; the records of later days, the snapshots taken after it
    /// and the rest of the current data are moved aside together into `import-backup-<stamp>/`, in
    /// one durable step (`StoreSwap`); the store is then loaded afresh. An import backup is the
    /// whole store it kept. With `dryRun`, only says what would be set aside.
    public func restore(_ generation: Generation, now: Instant, dryRun: Bool) throws(StoreError) -> RestoreOutcome {
        try checkReady()
        var outcome = RestoreOutcome(daysSetAside: 0, keptIn: "")
        var files: [(name: String, bytes: [UInt8])] = []
        var linked: [(from: DataFolder, name: String)] = []
        let last = generation.world.lastClosedDay
        if generation.kind == .importBackup {
            let sub = try folder.folder(generation.name)
            for name in try sub.names() where StoreSwap.isDataFile(name) { linked.append((sub, name)) }
            try countSetAside(after: try recordsLastDay(in: sub, through: nil).last, into: &outcome)
        } else {
            files.append((StateFile.name, StateFile.encode(generation.world)))
            for year in try history.years() {
                let name = HistoryFiles.name(year: year)
                guard let last, year <= last.year else {
                    try countSetAside(in: name, after: nil, into: &outcome)
                    continue
                }
                if year < last.year {
                    linked.append((folder, name))
                } else {
                    let (kept, cut) = try keptPrefix(of: name, through: last)
                    if cut {
                        files.append((name, kept))
                        try countSetAside(in: name, after: last, into: &outcome)
                    } else {
                        linked.append((folder, name))
                    }
                }
            }
            for name in try folder.names() {
                switch Self.kind(of: name) {
                case .closeout?:
                    let day = DayKey(parsing: String(name.dropFirst(6).dropLast(5)))
                    if let day, let last, day <= last { linked.append((folder, name)) }
                case .beforeCatchUp?:
                    let day = DayKey(parsing: String(name.dropFirst(13).dropLast(5)))
                    if let day, day <= generation.world.openDay.key { linked.append((folder, name)) }
                default: break
                }
            }
        }
        guard !dryRun else { return outcome }
        let kept = try StoreSwap.replace(in: folder, with: files, linking: linked, stamp: utcStamp(now))
        outcome.keptIn = kept
        outcome.loaded = try load(now: now)
        return outcome
    }

    /// The bytes of history file `name` up to and including the record of `last`, and whether any
    /// record after it was cut. (One year's file, read whole, as the store reads them.)
    private func keptPrefix(of name: String, through last: DayKey) throws(StoreError) -> ([UInt8], Bool) {
        guard let bytes = try folder.readIfPresent(name) else { return ([], false) }
        var lineStart = 0
        for (i, byte) in bytes.enumerated() where byte == UInt8(ascii: "\n") {
            if case .day(let day) = HistoryLine.day(of: bytes[lineStart..<i]), day > last {
                return (Array(bytes[..<lineStart]), true)
            }
            lineStart = i + 1
        }
        return (bytes, false)
    }

    /// Counts the records of history file `name` after `after` (all when nil) as set aside.
    private func countSetAside(in name: String, after: DayKey?, into outcome: inout RestoreOutcome) throws(StoreError) {
        guard let bytes = try folder.readIfPresent(name) else { return }
        var lineStart = 0
        for (i, byte) in bytes.enumerated() where byte == UInt8(ascii: "\n") {
            if case .day(let day) = HistoryLine.day(of: bytes[lineStart..<i]), after.map({ day > $0 }) ?? true {
                outcome.daysSetAside += 1
                outcome.firstDaySetAside = min(outcome.firstDaySetAside ?? day, day)
                outcome.lastDaySetAside = max(outcome.lastDaySetAside ?? day, day)
            }
            lineStart = i + 1
        }
    }

    /// For an import backup: the days of the current history after the backup's own last
    /// recorded day are the ones set aside.
    private func countSetAside(after backupLast: DayKey?, into outcome: inout RestoreOutcome) throws(StoreError) {
        for year in try history.years() where backupLast.map({ year >= $0.year }) ?? true {
            try countSetAside(in: HistoryFiles.name(year: year), after: backupLast, into: &outcome)
        }
    }

    /// The record days in a backup directory's last history file (ascending).
    private func recordsLastDay(in sub: DataFolder, through: DayKey?) throws(StoreError) -> [DayKey] {
        let years = try sub.names().filter { $0.hasPrefix("history-") && $0.hasSuffix(".jsonl") }.sorted()
        guard let name = years.last, let bytes = try sub.readIfPresent(name) else { return [] }
        var days: [DayKey] = []
        var lineStart = 0
        for (i, byte) in bytes.enumerated() where byte == UInt8(ascii: "\n") {
            if case .day(let day) = HistoryLine.day(of: bytes[lineStart..<i]) { days.append(day) }
            lineStart = i + 1
        }
        return days
    }
}
