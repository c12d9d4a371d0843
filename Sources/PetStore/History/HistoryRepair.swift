import LinuxKit
import PetCore

/// Bringing history in line with the state file at load (petprogress(7) §5). Planned first, read-only, so a
/// newer-schema line refuses the load before anything is touched; then applied durably.
struct HistoryRepair {
    /// Cut a file back to this length (a torn last line, or records after the state's last day).
    var truncations: [(year: Int, length: Int64, reason: String)] = []
    /// Remove whole files (every record in them is after the state's last closed day).
    var removals: [Int] = []
    /// The last day recorded once the repair is applied.
    var lastDay: DayKey?
    /// The newest file and its length once the repair is applied (nil: no history files).
    var tail: HistoryTail?
    /// Sentences for the log and `GetStatus`.
    var problems: [String] = []

    /// What needs repairing. `authority` is the state's last closed day when a state file was
    /// read (`.some(nil)` when it has closed no day yet), or nil when the state is empty, in which
    /// case only torn tails are cut and history's last day is adopted.
    ///
    /// `hint` is the tail the state file recorded; when the newest file is still that file at
    /// that length, history is as the state left it and none of it is read.
    static func plan(_ history: HistoryFiles, authority: DayKey??, hint: HistoryTail? = nil) throws(StoreError)
        -> HistoryRepair
    {
        var plan = HistoryRepair()
        var lastDayFound = false
        let ascending = try history.years()
        if authority != nil, ascending.last == hint?.year, let hint, history.length(year: hint.year) == hint.length {
            plan.lastDay = hint.lastDay
            plan.tail = hint
            return plan
        }
        if authority != nil, ascending.isEmpty, hint == nil { return plan }
        let years = ascending.reversed()
        for year in years {
            // Only files that can hold records after the state's last closed day need examining
            // (or, for an empty state, the newest, the only one a crash can have torn); older
            // ones are read only until history's last day is found.
            let examine: Bool
            if let limit = authority {
                examine = limit.map { year >= $0.year } ?? true
            } else {
                examine = year == years.first
            }
            if !examine && lastDayFound { break }

            let path = history.path(year: year)
            let file = try history.folder.open(HistoryFiles.name(year: year))
            defer { file.close() }
            let size = try io(file.size())
            let lines = try BackwardLines.open(file, size: size)
            let clean = lines.end
            var cut = clean
            if examine, let limit = authority {
                guard let last = limit, year <= last.year else {
                    try refuseNewer(lines, path: path)
                    plan.removals.append(year)
                    continue
                }
                cut = try firstRecordAfter(last, lines, path: path)
            }
            if plan.tail == nil { plan.tail = HistoryTail(year: year, length: cut) }
            if cut != size {
                let why =
                    cut == clean
                    ? "a torn last line (an interrupted write)"
                    : "records after the state's last closed day (an interrupted closeout)"
                plan.truncations.append((year, cut, why))
            }
            if !lastDayFound {
                let (day, unreadable) = try lastRecordedDay(lines.restarted(at: cut), path: path)
                if unreadable > 0 {
                    plan.problems.append(
                        "The history file \(path) has \(unreadable) unreadable line(s) near its end; they were kept and are skipped."
                    )
                }
                if let day {
                    plan.lastDay = day
                    lastDayFound = true
                }
            }
        }
        plan.tail?.lastDay = plan.lastDay
        return plan
    }

    /// Applies the plan: truncate and fsync each file, remove files, fsync the directory.
    func apply(_ history: HistoryFiles) throws(StoreError) {
        for t in truncations {
            let file = try history.folder.open(HistoryFiles.name(year: t.year), .writeOnly)
            defer { file.close() }
            try io(file.truncate(to: t.length))
            try io(file.fsync())
        }
        for year in removals { try history.folder.unlink(HistoryFiles.name(year: year)) }
        if !removals.isEmpty { try history.fsyncDirectory() }
    }

    /// One sentence for each file cut or removed and each problem found, for the log and `GetStatus`.
    func sentences(_ history: HistoryFiles) -> [String] {
        truncations.map {
            "The history file \(history.path(year: $0.year)) was cut back to \($0.length) bytes: it ended with \($0.reason)."
        }
            + removals.map {
                "The history file \(history.path(year: $0)) was removed: it held only records after the state's last closed day (an interrupted closeout)."
            } + problems
    }

    /// The offset of the first of the trailing records dated after `last` (or `end` if none).
    private static func firstRecordAfter(_ last: DayKey, _ reader: BackwardLines, path: String) throws(StoreError)
        -> Int64
    {
        var lines = reader
        var cut = reader.end
        while let line = try lines.previous() {
            switch HistoryLine.day(of: line.bytes) {
            case .day(let day) where day > last: cut = line.start
            case .day, .unreadable: return cut
            case .newer(let v): throw newer(v, path)
            }
        }
        return cut
    }

    private static func lastRecordedDay(_ reader: BackwardLines, path: String) throws(StoreError) -> (DayKey?, Int) {
        var lines = reader
        var unreadable = 0
        while let line = try lines.previous() {
            switch HistoryLine.day(of: line.bytes) {
            case .day(let day): return (day, unreadable)
            case .unreadable: unreadable += 1
            case .newer(let v): throw newer(v, path)
            }
        }
        return (nil, unreadable)
    }

    private static func refuseNewer(_ reader: BackwardLines, path: String) throws(StoreError) {
        var lines = reader
        while let line = try lines.previous() {
            if case .newer(let v) = HistoryLine.day(of: line.bytes) { throw newer(v, path) }
        }
    }

    static func newer(_ version: Int, _ path: String) -> StoreError {
        StoreError(
            .newerSchema(found: version, supported: Schema.current),
            "\(path) was written by a newer Pet Progress (schema \(version); this version reads up to \(Schema.current)). Nothing was changed; run the newer version, or point --data-dir elsewhere."
        )
    }
}
