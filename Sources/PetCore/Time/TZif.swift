/// Reads TZif data — the system's compiled tzdata, RFC 8536, versions 1 to 4 — into `ZoneRules`.
/// Pure: it is handed the bytes, and reads no file itself.
///
/// Version 1 data is read with its 32-bit times; from version 2 on, the 32-bit block is skipped and
/// the 64-bit block read, with the footer's POSIX TZ rule for instants past the table (Debian's
/// files list transitions only up to 2037). Every count is checked against the bytes that remain
/// before anything is read, so truncated, oversized or absurd data is an error, never a trap.
public enum TZif {
    /// The rules `bytes` describe, or why they are not TZif data.
    public static func rules(from bytes: [UInt8]) throws(ZoneError) -> ZoneRules {
        var reader = TZifReader(bytes)
        let first = try reader.header()
        guard first.version != 0 else { return try reader.block(first, timeSize: 4).rules(tail: nil) }
        try reader.skip(first.dataLength(timeSize: 4), "the version 1 data")
        let second = try reader.header()
        let block = try reader.block(second, timeSize: 8)
        return block.rules(tail: try reader.footer())
    }
}

/// A TZif header: the version byte and the six counts (RFC 8536 §3.1).
struct TZifHeader {
    static let size = 44
    let version: UInt8
    let isutcnt, isstdcnt, leapcnt, timecnt, typecnt, charcnt: Int

    /// The bytes of the data block this header announces.
    func dataLength(timeSize: Int) -> Int {
        timecnt * timeSize + timecnt + typecnt * 6 + charcnt + leapcnt * (timeSize + 4) + isstdcnt + isutcnt
    }

    /// The rules RFC 8536 sets for the counts of the block that is read.
    func check() throws(ZoneError) {
        guard typecnt >= 1, typecnt <= 256 else { throw ZoneError("\(typecnt) local time types (1 to 256 allowed)") }
        guard charcnt >= 1 else { throw ZoneError("no time zone abbreviations") }
        guard isstdcnt == 0 || isstdcnt == typecnt, isutcnt == 0 || isutcnt == typecnt else {
            throw ZoneError("standard/UT indicator counts (\(isstdcnt), \(isutcnt)) do not match \(typecnt) types")
        }
    }
}

/// The transitions, types and leap seconds of one data block, checked.
struct TZifBlock {
    var times: [Instant] = []
    var typeIndices: [Int] = []
    var offsets: [Int32] = []
    var isDaylight: [Bool] = []
    var leapTimes: [Instant] = []
    var leapCorrections: [Int32] = []

    func rules(tail: PosixTZ?) -> ZoneRules {
        // Before the first transition: the first standard-time type (glibc's and zoneinfo's choice).
        let initial = offsets[isDaylight.firstIndex(of: false) ?? 0]
        return ZoneRules(
            times: times, offsets: typeIndices.map { offsets[$0] }, initial: Int(initial), tail: tail,
            leapTimes: leapTimes, leapCorrections: leapCorrections)
    }
}
