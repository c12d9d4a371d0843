import PetBus
import PetCore

extension PetClient {
    /// Every archived day with a key in `[from, to]` (`""` leaves a side open), ascending:
    /// `GetHistory` answers at most 31, the latest, so this pages backwards with `to` set to the
    /// day before the earliest key received, until `more` is false (petprogress(7) §6.1).
    func allHistory(from: String = "", to: String = "") throws(PetClientError) -> [HistoryRecord] {
        var pages: [[HistoryRecord]] = []
        var upper = to
        while true {
            let (records, more) = try history(from: from, to: upper)
            pages.append(records)
            guard more else { break }
            // A page that says "more" must move back, or paging would never end.
            guard let earliest = records.first.flatMap({ CivilDate(parsing: $0.dayKey) }),
                upper.isEmpty || earliest.description <= upper
            else {
                // not translated: a malformed reply's detail, for a bug report.
                throw .malformedReply(BusDecodingError("GetHistory said more but its page did not move back"))
            }
            upper = earliest.adding(days: -1).description
        }
        return pages.reversed().flatMap { $0 }
    }

    /// The export's `store` member, read page by page (`ExportStorePart`, petprogress(7) §6): no
    /// reply carries more than a page, whatever the history's size. Each page must move forward.
    func wholeStore() throws(PetClientError) -> String {
        var text = ""
        var after = ""
        while true {
            let (part, lastDay, more) = try exportStorePart(after: after)
            text += part
            guard more else { return text }
            guard !lastDay.isEmpty, after.isEmpty || lastDay > after else {
                // not translated: a malformed reply's detail, for a bug report.
                throw .malformedReply(BusDecodingError("ExportStorePart said more but its page did not move on"))
            }
            after = lastDay
        }
    }
}
