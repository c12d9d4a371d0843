import PetCore

/// Reading closed days back from history (petprogress(7) §5): only the year files a question needs.
extension PetStore {
    /// The record of one closed day, reading only that year's file; nil when the day has none.
    public func history(day: DayKey) throws(StoreError) -> DayRecord? {
        try history.records(year: day.year).last { $0.day.key == day }
    }

    /// The records of the closed days in `range`, ascending: at most `limit`, the latest when more
    /// match (`more` then true). Reads only the year files the range touches, newest first, and
    /// no older ones once more than `limit` records are found.
    public func history(in range: HistoryRange, limit: Int = HistoryRange.pageLimit) throws(StoreError) -> (
        records: [DayRecord], more: Bool
    ) {
        try history.records(in: range, limit: limit)
    }

    /// Every record up to the state's last closed day, ascending: all of history, for an export.
    public func allHistory() throws(StoreError) -> [DayRecord] {
        guard let last = durableLastClosedDay else { return [] }
        var records: [DayRecord] = []
        for year in try history.years() { records += try history.records(year: year).filter { $0.day.key <= last } }
        return records
    }

    /// The records after `after` (nil: from the first), ascending, up to the state's last closed
    /// day: at most `limit`, the earliest, and whether more follow — a page of an export.
    public func history(after: DayKey?, limit: Int) throws(StoreError) -> (records: [DayRecord], more: Bool) {
        guard let last = durableLastClosedDay else { return ([], false) }
        return try history.records(after: after, through: last, limit: limit)
    }

    /// Whether history holds any record.
    public var hasHistory: Bool { lastHistoryDay != nil }

    /// The newest `days` records, oldest first, reading only as many year files as needed.
    public func recentHistory(days: Int) throws(StoreError) -> [DayRecord] {
        try history.recent(days)
    }
}
