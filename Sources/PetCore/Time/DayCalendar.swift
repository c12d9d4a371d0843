/// The day model of petprogress(7) §3 as pure functions of instants, the reset time and the zone.
public enum DayCalendar {
    /// A day lasts at least this long; its end is the first reset instant at least this far on.
    public static let minimumDayLength: Instant = 12 * 3600

    /// The first instant at or after `t` whose local wall time is `time` (in a gap, the first
    /// instant after the gap).
    public static func firstInstant(atOrAfter t: Instant, wallTime time: WallTime, zone: Zone) -> Instant {
        let today = zone.localDate(at: t)
        // Five local dates cover any zone move (even a skipped calendar day); take the earliest hit.
        for offset in -1...3 {
            if let hit = zone.placements(on: today.adding(days: offset), at: time).first(where: { $0 >= t }) {
                return hit
            }
        }
        return t  // unreachable for real zones: every date has a placement for every wall time
    }

    /// The end of the day that starts at `start`: the first reset instant at least 12 hours later.
    public static func end(ofDayStartingAt start: Instant, resetTime: WallTime, zone: Zone) -> Instant {
        firstInstant(atOrAfter: start + minimumDayLength, wallTime: resetTime, zone: zone)
    }

    /// The very first day of an empty state: the day containing `now`, computed backwards from now
    /// with the current reset time. Its key is never at or before `after` (history's last day).
    public static func firstDay(containing now: Instant, resetTime: WallTime, zone: Zone, after: DayKey? = nil) -> Day {
        let today = zone.localDate(at: now)
        // The latest day boundary (a reset instant; the first occurrence in a fold) at or before now.
        var start =
            (-3...0).compactMap { zone.placements(on: today.adding(days: $0), at: resetTime).first }
            .filter { $0 <= now }.max() ?? now
        var end = self.end(ofDayStartingAt: start, resetTime: resetTime, zone: zone)
        while end <= now {
            start = end
            end = self.end(ofDayStartingAt: start, resetTime: resetTime, zone: zone)
        }
        return Day(key: key(startingAt: start, zone: zone, after: after), start: start, end: end)
    }

    /// The day after `day`, as shaped by the current reset time: it starts where `day` ends.
    public static func day(after day: Day, resetTime: WallTime, zone: Zone) -> Day {
        Day(
            key: key(startingAt: day.end, zone: zone, after: day.key),
            start: day.end,
            end: end(ofDayStartingAt: day.end, resetTime: resetTime, zone: zone))
    }

    /// A day's key: its local start date, or the previous key plus one day if that is not later.
    static func key(startingAt start: Instant, zone: Zone, after previous: DayKey?) -> DayKey {
        let local = zone.localDate(at: start)
        guard let previous, local <= previous else { return local }
        return previous.adding(days: 1)
    }

    /// The instant a task time means within `day`: the first instant in `[start, end)` whose local
    /// wall time is `time` (a gap gives the first instant after it; a fold, the first occurrence).
    /// Nil when the time falls nowhere in the interval (a shortened transition day).
    public static func instant(of time: WallTime, in day: Day, zone: Zone) -> Instant? {
        occurrences(of: time, in: day, zone: zone).first
    }

    /// The instant a task time means within `day` when it is chosen at `moment`: on a day longer
    /// than 24 hours a wall time can occur on two dates, a day apart, and the one closest to
    /// `moment` wins (the first on a tie). Nil when the time falls nowhere in the interval.
    public static func instant(of time: WallTime, in day: Day, zone: Zone, closestTo moment: Instant) -> Instant? {
        occurrences(of: time, in: day, zone: zone).min { (abs($0 - moment), $0) < (abs($1 - moment), $1) }
    }

    /// The occurrences of `time` within `day`, ascending: one per local date, its first instant in
    /// the interval, so a fold's second pass never counts as a second occurrence.
    static func occurrences(of time: WallTime, in day: Day, zone: Zone) -> [Instant] {
        let last = zone.localDate(at: day.end - 1).adding(days: 1)
        var date = zone.localDate(at: day.start).adding(days: -1)
        var hits: [Instant] = []
        while date <= last {
            if let hit = zone.placements(on: date, at: time).filter(day.contains).min() { hits.append(hit) }
            date = date.adding(days: 1)
        }
        return hits.sorted()
    }
}
