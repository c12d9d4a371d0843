/// A time zone as the rules see it: a name, and the UTC offset in force at each instant.
///
/// The offsets come from the system's tzdata (TZif data, read by `TZif`), from a POSIX TZ rule
/// string, or are fixed; PetCore is handed the bytes and reads no file. All wall-clock reasoning
/// goes through `offset(at:)`, so nothing assumes 24-hour days or whole-hour offsets.
///
/// Two zones are equal when both the name and the rules are: the daemon re-reads the local zone
/// when `/etc/localtime` or the zone file changes and acts only when the zone really differs.
public struct Zone: Sendable, Hashable {
    /// The tz name (`Europe/Berlin`), the POSIX rule string, or a path: where the rules came from.
    public let identifier: String
    public let rules: ZoneRules

    public init(identifier: String, rules: ZoneRules) {
        self.identifier = identifier
        self.rules = rules
    }

    /// The zone TZif data describes (the contents of a file under `/usr/share/zoneinfo`).
    public init(identifier: String, tzif bytes: [UInt8]) throws(ZoneError) {
        self.init(identifier: identifier, rules: try TZif.rules(from: bytes))
    }

    /// The zone a POSIX TZ rule string describes (`CET-1CEST,M3.5.0,M10.5.0/3`), named by it.
    public init(posixRule text: String) throws(ZoneError) {
        self.init(identifier: text, rules: ZoneRules(rule: try PosixTZ(parsing: text)))
    }

    /// A fixed offset from UTC, in seconds east (within ±25 hours).
    public init?(fixedOffset seconds: Int) {
        guard abs(seconds) < 90_000 else { return nil }
        self.init(identifier: Self.name(fixedOffset: seconds), rules: .fixed(seconds))
    }

    public static let utc = Zone(identifier: "UTC", rules: .fixed(0))

    /// Seconds east of UTC in force at `t`.
    public func offset(at t: Instant) -> Int { rules.offset(at: t) }

    /// `UTC`, `UTC+05:30`, `UTC-03:00`.
    static func name(fixedOffset seconds: Int) -> String {
        guard seconds != 0 else { return "UTC" }
        let m = abs(seconds) / 60
        let s = abs(seconds) % 60
        return "UTC\(seconds < 0 ? "-" : "+")\(pad(m / 60, 2)):\(pad(m % 60, 2))\(s == 0 ? "" : ":\(pad(s, 2))")"
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
