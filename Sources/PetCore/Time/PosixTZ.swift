/// A POSIX TZ rule string, as in `TZ=CET-1CEST,M3.5.0,M10.5.0/3` or a TZif file's footer
/// (POSIX.1-2017 §8.3, with RFC 8536 §3.3.1's change times from −167 to 167 hours).
///
/// The string counts offsets west of UTC; here, as everywhere in PetCore, offsets are seconds
/// east. The offset in force is decided exactly as glibc's `tzset`/`localtime` decide it, so the
/// daemon agrees with every other program on the desktop: the year whose start and end of
/// daylight time are compared with an instant is that instant's *UTC* year.
public struct PosixTZ: Sendable, Hashable {
    /// A named offset from UTC.
    public struct Period: Sendable, Hashable {
        public let name: String
        /// Seconds east of UTC.
        public let offset: Int
    }

    /// Daylight time: its name and offset, and when it starts and ends each year.
    public struct Daylight: Sendable, Hashable {
        public let period: Period
        /// When daylight time starts, in local standard time.
        public let start: Change
        /// When daylight time ends, in local daylight time.
        public let end: Change

        public var offset: Int { period.offset }
    }

    /// A day of the year and a time on it.
    public struct Change: Sendable, Hashable {
        public let date: ChangeDate
        /// Seconds after the local midnight that starts `date`; from −167 to 167 hours.
        public let time: Int
    }

    /// The three ways the rule names a day.
    public enum ChangeDate: Sendable, Hashable {
        /// `Jn`: day 1…365, February 29 never counted (J60 is always March 1).
        case julian(Int)
        /// `n`: day 0…365 from January 1, February 29 counted in leap years.
        case zeroBased(Int)
        /// `Mm.w.d`: weekday `d` (0 = Sunday) of week `w` (1…5, 5 = the last) of month `m`.
        case monthWeekDay(month: Int, week: Int, weekday: Int)
    }

    public let standard: Period
    public let daylight: Daylight?
    /// The numbers `offset(at:)` needs, without the names: a plain value, cheap to copy.
    let numbers: Numbers

    struct Numbers: Hashable {
        let standard: Int
        let daylight: Int
        let start: Change
        let end: Change
    }

    /// Parses the whole string; anything it does not describe completely is an error.
    public init(parsing text: String) throws(ZoneError) {
        var parser = PosixTZParser(text)
        (standard, daylight) = try parser.parse()
        let noChange = Change(date: .zeroBased(0), time: 0)
        numbers = Numbers(
            standard: standard.offset, daylight: daylight?.offset ?? standard.offset,
            start: daylight?.start ?? noChange, end: daylight?.end ?? noChange)
    }

    /// Seconds east of UTC in force at `t`.
    public func offset(at t: Instant) -> Int { numbers.offset(at: t) }

    /// 0001-01-01T00:00:00Z and 9999-12-31T23:59:59Z.
    static let firstInstant: Instant = -62_135_596_800
    static let lastInstant: Instant = 253_402_300_799
}

extension PosixTZ.Numbers {
    func offset(at t: Instant) -> Int {
        guard daylight != standard else { return standard }
        // Beyond years 1…9999 the rule is read in the nearest of them: no arithmetic can overflow.
        let clamped = min(max(t, PosixTZ.firstInstant), PosixTZ.lastInstant)
        let year = CivilDate(daysSinceEpoch: Int(floorDiv(clamped, 86_400))).year
        let start = start.instant(in: year, offsetBefore: standard)
        let end = end.instant(in: year, offsetBefore: daylight)
        // A start after the end is daylight time across New Year (the southern hemisphere).
        let inDaylight = start > end ? (clamped < end || clamped >= start) : (clamped >= start && clamped < end)
        return inDaylight ? daylight : standard
    }
}

extension PosixTZ.Change {
    /// The instant of this change in `year`, with `offsetBefore` the offset in force until then.
    func instant(in year: Int, offsetBefore: Int) -> Instant {
        Instant(date.day(in: year)) * 86_400 + Instant(time - offsetBefore)
    }
}

extension PosixTZ.ChangeDate {
    /// Days since 1970-01-01 of this date in `year`.
    func day(in year: Int) -> Int {
        let january1 = CivilDate.days(year: year, month: 1, day: 1)
        switch self {
        case .julian(let n):
            return january1 + n - 1 + (n >= 60 && CivilDate.isLeap(year) ? 1 : 0)
        case .zeroBased(let n):
            return january1 + n
        case .monthWeekDay(let month, let week, let weekday):
            let first = CivilDate.days(year: year, month: month, day: 1)
            let firstWeekday = ((first % 7) + 7 + 4) % 7  // 1970-01-01 was a Thursday (4; Sunday is 0)
            var dayOfMonth = (weekday - firstWeekday + 7) % 7
            // Week 5 means the last such weekday: step a week at a time while one still fits.
            let length = CivilDate.daysIn(month: month, year: year)
            for _ in 1..<week where dayOfMonth + 7 < length { dayOfMonth += 7 }
            return first + dayOfMonth
        }
    }
}
