import PetCore

/// Offsets as glibc reads the same system tzdata: `zdump -i` (glibc's zdump, from libc-bin), run
/// once for all the zones of a test, not Foundation's ICU, which carries its own copy of tzdata.
struct ZoneOracle {
    /// One zone between the cutoffs: the offset in force at the low cutoff, then each change of
    /// offset (zdump also lists changes of abbreviation alone; those are dropped).
    struct Timeline: Sendable {
        var initial: Int
        var changes: [(at: Instant, offset: Int)] = []

        func offset(at t: Instant) -> Int {
            changes.last { $0.at <= t }?.offset ?? initial
        }

        func changes(from start: Instant, to end: Instant) -> [(at: Instant, offset: Int)] {
            changes.filter { $0.at >= start && $0.at < end }
        }
    }

    /// The timelines of `zones` from January 1 of `fromYear` to January 1 of `toYear` (UT).
    static func dump(_ zones: [String], fromYear: Int, toYear: Int) throws -> [String: Timeline] {
        let text = try SystemZones.run("/usr/bin/zdump", ["-i", "-c", "\(fromYear),\(toYear)"] + zones)
        var result: [String: Timeline] = [:]
        var current: String?
        for line in text.split(separator: "\n") {
            if line.hasPrefix("TZ=\"") {
                current = String(line.dropFirst(4).dropLast())
                continue
            }
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false)
            guard let zone = current, fields.count >= 3, let offset = offset(fields[2]) else {
                throw SystemZoneError("zdump: unexpected line \(line)")
            }
            if fields[0] == "-" {
                result[zone] = Timeline(initial: offset)
                continue
            }
            guard let wall = wallSeconds(date: fields[0], time: fields[1]), var timeline = result[zone] else {
                throw SystemZoneError("zdump: unexpected line \(line)")
            }
            if offset != timeline.changes.last?.offset ?? timeline.initial {
                timeline.changes.append((wall - Instant(offset), offset))
            }
            result[zone] = timeline
        }
        return result
    }

    /// `+0530`, `-02`, `+013456` → seconds east.
    static func offset(_ field: Substring) -> Int? {
        guard let sign = field.first, sign == "+" || sign == "-" else { return nil }
        let digits = field.dropFirst()
        guard digits.count % 2 == 0, digits.count >= 2, let n = Int(digits) else { return nil }
        let (h, m, s) =
            digits.count == 2
            ? (n, 0, 0) : digits.count == 4 ? (n / 100, n % 100, 0) : (n / 10_000, n / 100 % 100, n % 100)
        return (sign == "-" ? -1 : 1) * (h * 3600 + m * 60 + s)
    }

    /// `2026-03-29` and `03`, `01:30` or `02:30:15` → seconds since the epoch of that wall clock.
    static func wallSeconds(date: Substring, time: Substring) -> Instant? {
        guard let day = CivilDate(parsing: String(date)) else { return nil }
        let parts = time.split(separator: ":").map { Int($0) }
        guard (1...3).contains(parts.count), !parts.contains(nil) else { return nil }
        let p = parts.compactMap { $0 } + [0, 0]
        return Instant(day.daysSinceEpoch) * 86_400 + Instant(p[0] * 3600 + p[1] * 60 + p[2])
    }
}
