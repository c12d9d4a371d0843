/// The bounds of the numbers and ids a world holds, whether they came over the bus or are read
/// back from a file (petprogress(7) §5). Titles, times, day keys, repeat rules and settings have
/// their own checks, used the same way by both (`TaskTitle`, `WallTime`, `CivilDate`, `Repeat`,
/// `Settings`).
public enum Bounds {
    /// Counters (serials, sequence numbers, counts of tasks), stage indexes and XP: 0…2³¹−1.
    public static let count: ClosedRange<Int64> = 0...Int64(Int32.max)
    /// A closed day's XP change and daily result, which may be negative: −(2³¹−1)…2³¹−1.
    public static let xpChange: ClosedRange<Int64> = -Int64(Int32.max)...Int64(Int32.max)
    /// Instants: 1970-01-01T00:00:00Z to 9999-12-31T23:59:59Z.
    public static let instant: ClosedRange<Instant> = 0...253_402_300_799

    /// The date and serial of a task id, `YYYYMMDD-N` with N ≥ 1, or nil when it is not one.
    /// (Read from its bytes: every task of a state file is checked on load.)
    public static func taskID(_ id: String) -> (day: DayKey, serial: UInt64)? {
        let bytes = id.utf8
        var i = bytes.startIndex
        var date = 0
        for _ in 0..<8 {
            guard i != bytes.endIndex, (48...57).contains(bytes[i]) else { return nil }
            date = date * 10 + Int(bytes[i] - 48)
            i = bytes.index(after: i)
        }
        guard i != bytes.endIndex, bytes[i] == UInt8(ascii: "-"),
            let n = UInt64(Substring(bytes[bytes.index(after: i)...])),
            n >= 1, let day = CivilDate(year: date / 10_000, month: date / 100 % 100, day: date % 100)
        else { return nil }
        return (day, n)
    }

    /// The serial of a template id, `t-N` with N ≥ 1, or nil when it is not one.
    public static func templateID(_ id: String) -> UInt64? {
        guard id.hasPrefix("t-"), let n = UInt64(id.dropFirst(2)), n >= 1 else { return nil }
        return n
    }
}
