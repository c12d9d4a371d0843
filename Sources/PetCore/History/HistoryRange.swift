/// The days a `GetHistory` call asks for (petprogress(7) §6.1): `[from, to]`, either side open when absent.
public struct HistoryRange: Hashable, Sendable {
    public let from: DayKey?
    public let to: DayKey?

    /// At most this many records per answer: the latest, when more match.
    public static let pageLimit = 31

    public init(from: DayKey?, to: DayKey?) {
        self.from = from
        self.to = to
    }

    /// `GetHistory`'s arguments: day keys, `""` for no bound on that side. A malformed key or
    /// `from` after `to` is `InvalidArgument`.
    public static func parse(from rawFrom: String, to rawTo: String) throws(PetError) -> HistoryRange {
        let from = try bound(rawFrom)
        let to = try bound(rawTo)
        if let from, let to, from > to {
            throw PetError(.invalidArgument, "The range runs backwards: \(from) is after \(to).")
        }
        return HistoryRange(from: from, to: to)
    }

    public func contains(_ key: DayKey) -> Bool {
        (from.map { key >= $0 } ?? true) && (to.map { key <= $0 } ?? true)
    }

    /// Whether a year's days can lie in the range.
    public func overlaps(year: Int) -> Bool {
        (from.map { year >= $0.year } ?? true) && (to.map { year <= $0.year } ?? true)
    }

    private static func bound(_ text: String) throws(PetError) -> DayKey? {
        if text.isEmpty { return nil }
        guard let key = CivilDate(parsing: text) else {
            throw PetError(
                .invalidArgument, "History is asked for by day keys YYYY-MM-DD (or \"\"), not \(quoted(text)).")
        }
        return key
    }
}
