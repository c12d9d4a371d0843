/// Rest days (petprogress(7) §3.1.1): which days are marked, and `SetRest`'s rules.
extension PetWorld {
    /// How far ahead of the open day a day may be marked.
    public static let restHorizonDays = 365

    /// Whether the day keyed `key` is marked as a rest day.
    public func isRestDay(_ key: DayKey) -> Bool { restDays.contains(key) }

    /// Whether the open day is a rest day (part of the entry's live task part).
    public var openDayIsRest: Bool { isRestDay(openDay.key) }

    /// The marked keys from the open day on, ascending (`ListRestDays`). A key a zone change
    /// skipped may still be held until the next closeout; it is not a day to show.
    public var markedRestDays: [DayKey] { restDays.filter { $0 >= openDay.key } }

    /// Marks (`rest` true) or unmarks every day from `from` to `to` inclusive; each is `"today"`,
    /// `"tomorrow"` or a day key. Checks, in petprogress(7) §6.1's order: a malformed day or `from` after
    /// `to` is `InvalidArgument`; a day before the open day (closed, or never a day) is
    /// `ReadOnlyDay`; a day more than 365 days after the open day is `InvalidArgument`. Nothing
    /// changes on an error.
    public mutating func setRest(from rawFrom: String, to rawTo: String, rest: Bool, _ ctx: Context)
        throws(PetError)
    {
        let from = try restDayKey(rawFrom, ctx)
        let to = try restDayKey(rawTo, ctx)
        guard from <= to else {
            throw PetError(.invalidArgument, "The range runs backwards: \(from) is after \(to).")
        }
        guard from >= openDay.key else {
            throw PetError(
                .readOnlyDay, "\(from) is in the past; only the open day (\(openDay.key)) and later days can change.")
        }
        let horizon = openDay.key.adding(days: Self.restHorizonDays)
        guard to <= horizon else {
            throw PetError(
                .invalidArgument,
                "\(to) is too far ahead; days up to \(horizon), \(Self.restHorizonDays) days after today, can be marked."
            )
        }
        let range = (from.daysSinceEpoch...to.daysSinceEpoch).map(DayKey.init(daysSinceEpoch:))
        let kept = restDays.filter { $0 < from || $0 > to }
        restDays = rest ? (kept + range).sorted() : kept
        touch(range)
        _ = recordMutation()
    }

    /// `"today"`, `"tomorrow"` or a `YYYY-MM-DD` key.
    private func restDayKey(_ text: String, _ ctx: Context) throws(PetError) -> DayKey {
        guard let name = DayName(text, emptyIsToday: false) else {
            throw PetError(
                .invalidArgument, "A rest day is \"today\", \"tomorrow\" or a date YYYY-MM-DD, not \(quoted(text)).")
        }
        return key(of: name, zone: ctx.zone)
    }

    /// Drops every marked key up to and including `key` (a day that just closed).
    mutating func pruneRestDays(through key: DayKey) {
        restDays.removeAll { $0 <= key }
    }
}
