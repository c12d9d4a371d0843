import Foundation

/// A time zone as the rules see it: the UTC offset in force at each instant.
///
/// Wraps Foundation's `TimeZone` (which needs `import Foundation`, not just FoundationEssentials, to
/// have the zone database on Linux — DESIGN.md §4). All wall-clock reasoning goes through
/// `offset(at:)`, so nothing assumes 24-hour days or whole-hour offsets.
public struct Zone: Sendable, Equatable {
    public let timeZone: TimeZone

    public init(_ timeZone: TimeZone) { self.timeZone = timeZone }

    /// The zone with this tz identifier (e.g. `Europe/Berlin`), or nil if the toolchain lacks it.
    public init?(identifier: String) {
        guard let tz = TimeZone(identifier: identifier) else { return nil }
        self.timeZone = tz
    }

    /// A fixed offset from UTC, in seconds east.
    public init?(fixedOffset seconds: Int) {
        guard let tz = TimeZone(secondsFromGMT: seconds) else { return nil }
        self.timeZone = tz
    }

    public static let utc = Zone(fixedOffset: 0)!

    public var identifier: String { timeZone.identifier }

    /// Seconds east of UTC in force at `t`.
    public func offset(at t: Instant) -> Int {
        timeZone.secondsFromGMT(for: Date(timeIntervalSince1970: TimeInterval(t)))
    }

    /// Seconds since 1970-01-01 00:00 of the local wall clock at `t`.
    public func wallSeconds(at t: Instant) -> Int64 { t + Int64(offset(at: t)) }

    /// The local date at `t`.
    public func localDate(at t: Instant) -> CivilDate {
        CivilDate(daysSinceEpoch: Int(floorDiv(wallSeconds(at: t), 86_400)))
    }

    /// The local wall time at `t`, with its seconds.
    public func localTime(at t: Instant) -> (date: CivilDate, hour: Int, minute: Int, second: Int) {
        let wall = wallSeconds(at: t)
        let secs = Int(wall - floorDiv(wall, 86_400) * 86_400)
        return (localDate(at: t), secs / 3600, secs / 60 % 60, secs % 60)
    }

    /// The local `HH:MM` at `t`.
    public func wallTime(at t: Instant) -> WallTime {
        let l = localTime(at: t)
        return WallTime(hour: l.hour, minute: l.minute) ?? .midnight
    }

    /// The instants a local wall time means on a local date, ascending: its one occurrence, both
    /// occurrences in a fold, or — in a gap — the first instant after the gap.
    public func placements(on date: CivilDate, at seconds: Int) -> [Instant] {
        let wall = Int64(date.daysSinceEpoch) * 86_400 + Int64(seconds)
        // Any offset in force within a day of the wall time; a zone cannot move further than that.
        let offsets = Set([wall - 86_400, wall, wall + 86_400].map { offset(at: $0) })
        let candidates = offsets.map { wall - Int64($0) }
        let exact = candidates.filter { wallSeconds(at: $0) == wall }.sorted()
        if !exact.isEmpty { return exact }
        // A gap: the earliest instant whose wall clock has passed `wall` (wall time only jumps there).
        var lo = candidates.min() ?? wall
        var hi = candidates.max() ?? wall
        guard wallSeconds(at: hi) >= wall else { return [hi] }
        while lo < hi {
            let mid = lo + (hi - lo) / 2
            if wallSeconds(at: mid) >= wall { hi = mid } else { lo = mid + 1 }
        }
        return [lo]
    }

    /// `placements(on:at:)` for a minute-precision wall time.
    public func placements(on date: CivilDate, at time: WallTime) -> [Instant] {
        placements(on: date, at: time.secondsSinceMidnight)
    }
}

func floorDiv(_ a: Int64, _ b: Int64) -> Int64 {
    let q = a / b
    return (a % b != 0 && (a < 0) != (b < 0)) ? q - 1 : q
}
