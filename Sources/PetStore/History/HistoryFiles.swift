import LinuxKit
import PetCore

/// The append-only history: one JSON Lines file per year of the day key, `history-2026.jsonl`,
/// records in day order. Start-up reads only file tails; queries read only the years they need.
struct HistoryFiles {
    let folder: DataFolder

    static func name(year: Int) -> String {
        let digits = String(year)
        return "history-" + String(repeating: "0", count: max(0, 4 - digits.count)) + digits + ".jsonl"
    }

    private static let prefix = Array("history-".utf8)
    private static let suffix = Array(".jsonl".utf8)

    func path(year: Int) -> String { folder.path(Self.name(year: year)) }

    /// The years that have a history file, ascending. Names are matched on their bytes, so a
    /// directory of many years costs next to nothing more to list.
    func years() throws(StoreError) -> [Int] {
        var years: [Int] = []
        try folder.forEachName { name in
            // "history-YYYY.jsonl": 18 bytes.
            guard name.count == 18, name.starts(with: Self.prefix), name[12...].elementsEqual(Self.suffix)
            else { return }
            var value = 0
            for i in 8..<12 {
                guard (48...57).contains(name[i]) else { return }
                value = value * 10 + Int(name[i] - 48)
            }
            years.append(value)
        }
        return years.sorted()
    }

    /// The size of one year's file, nil when it does not exist.
    func length(year: Int) -> Int64? {
        (try? FileSystem.status(Self.name(year: year), in: folder.file))?.size
    }

    // MARK: Appending

    /// Appends records (ascending, each after `last`) to their year files: one write and one fsync
    /// per file, and a directory fsync when a file is new. On failure the file is cut back to its
    /// old length (a new one removed), best effort, and the error is thrown; the caller then repairs
    /// against the state file before trusting history again.
    func append(_ records: [DayRecord], tail: HistoryTail?) throws(StoreError) -> HistoryTail? {
        var groups: [(year: Int, bytes: [UInt8])] = []
        for record in records {
            let line = try HistoryLine.encode(record)
            if let lastGroup = groups.last, lastGroup.year == record.day.key.year {
                groups[groups.count - 1].bytes += line
            } else {
                groups.append((record.day.key.year, line))
            }
        }
        var created = false
        var tail = tail
        for group in groups {
            let name = Self.name(year: group.year)
            let isNew = !folder.exists(name)
            let file = try folder.open(name, [.writeOnly, .append, .create])
            defer { file.close() }
            let oldSize = try io(file.size())
            do throws(SystemCallError) {
                try file.writeAll(group.bytes)
                try file.fsync()
            } catch {
                try? file.truncate(to: oldSize)
                try? file.fsync()
                if isNew { try? folder.unlink(name) }
                throw StoreError(error)
            }
            created = created || isNew
            if group.year >= (tail?.year ?? Int.min) {
                tail = HistoryTail(year: group.year, length: oldSize + Int64(group.bytes.count))
            }
        }
        if created { try fsyncDirectory() }
        if let last = records.last?.day.key { tail?.lastDay = last }
        return tail
    }

    func fsyncDirectory() throws(StoreError) { try folder.fsync() }

    // MARK: Reading

    /// Every readable record of one year, in file order (skipping a torn tail and unreadable lines).
    func records(year: Int) throws(StoreError) -> [DayRecord] {
        try lines(year: year).compactMap { line in
            if case .record(let r) = HistoryLine.decode(line) { return r }
            return nil
        }
    }

    /// The complete lines of one year's file (without their newlines; a torn tail is left out).
    func lines(year: Int) throws(StoreError) -> [ArraySlice<UInt8>] {
        guard let bytes = try folder.readIfPresent(Self.name(year: year)) else { return [] }
        var out: [ArraySlice<UInt8>] = []
        var lineStart = 0
        for (i, byte) in bytes.enumerated() where byte == UInt8(ascii: "\n") {
            out.append(bytes[lineStart..<i])
            lineStart = i + 1
        }
        return out
    }

    /// The records whose day keys lie in `range`, ascending: at most `limit`, the latest when more
    /// match (`more` then true). Reads only the year files the range can touch, newest first, and
    /// stops as soon as it holds more than `limit`. Lines are picked by their day key (read from a
    /// line's first bytes) and only the ones returned are decoded in full.
    func records(in range: HistoryRange, limit: Int) throws(StoreError) -> (records: [DayRecord], more: Bool) {
        var found: [DayRecord] = []
        for year in try years().reversed() where range.overlaps(year: year) {
            var fromThisYear: [DayRecord] = []
            for line in try lines(year: year).reversed() {
                if found.count + fromThisYear.count > limit { break }
                guard case .day(let key) = HistoryLine.day(of: line), range.contains(key),
                    case .record(let record) = HistoryLine.decode(line)
                else { continue }
                fromThisYear.append(record)
            }
            found = fromThisYear.reversed() + found
            if found.count > limit { break }
        }
        return (Array(found.suffix(limit)), found.count > limit)
    }

    /// The records with day keys after `after` (nil: from the first) and at most `through`,
    /// ascending: at most `limit`, the earliest, and whether more follow. Reads year files from
    /// `after`'s year forwards and stops at the first that fills the page; lines are picked by their
    /// day key and only the ones returned are decoded (an export's pages, petprogress(7) §6).
    func records(after: DayKey?, through: DayKey, limit: Int) throws(StoreError) -> (records: [DayRecord], more: Bool) {
        var found: [DayRecord] = []
        for year in try years() where year >= (after?.year ?? Int.min) && year <= through.year {
            for line in try lines(year: year) {
                guard case .day(let key) = HistoryLine.day(of: line), after.map({ key > $0 }) ?? true, key <= through
                else { continue }
                if found.count == limit { return (found, true) }
                if case .record(let record) = HistoryLine.decode(line) { found.append(record) }
            }
        }
        return (found, false)
    }

    /// The newest `count` records, oldest first, reading year files from the newest backwards.
    func recent(_ count: Int) throws(StoreError) -> [DayRecord] {
        guard count > 0 else { return [] }
        var collected: [[DayRecord]] = []
        var total = 0
        for year in try years().reversed() {
            let recs = try records(year: year)
            collected.append(recs)
            total += recs.count
            if total >= count { break }
        }
        return Array(collected.reversed().joined().suffix(count))
    }
}
