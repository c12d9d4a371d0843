/// Writes TZif data (RFC 8536) from parts, to make files no tzdata ships: version 1 only,
/// version 4 leap tables, and every kind of damage.
struct TZifFile {
    struct LocalType {
        var offset: Int32
        var isDaylight = false
        var abbreviation: UInt8 = 0
    }

    /// 0 for version 1, else the ASCII digit.
    var version: UInt8 = UInt8(ascii: "2")
    var types: [LocalType] = [LocalType(offset: 3600)]
    var abbreviations: [UInt8] = Array("CET\0".utf8)
    var transitions: [(at: Int64, type: UInt8)] = []
    var leaps: [(at: Int64, correction: Int32)] = []
    /// The footer's rule ("" for an empty footer).
    var footer = "CET-1"

    var bytes: [UInt8] {
        let small = transitions.filter { Int64(Int32.min)...Int64(Int32.max) ~= $0.at }
        let smallLeaps = leaps.filter { Int64(Int32.min)...Int64(Int32.max) ~= $0.at }
        var out = header(transitions: small.count, leaps: smallLeaps.count) + block(small, smallLeaps, timeSize: 4)
        guard version != 0 else { return out }
        out += header(transitions: transitions.count, leaps: leaps.count) + block(transitions, leaps, timeSize: 8)
        return out + Array("\n\(footer)\n".utf8)
    }

    func header(transitions: Int, leaps: Int) -> [UInt8] {
        var out = Array("TZif".utf8) + [version] + [UInt8](repeating: 0, count: 15)
        for count in [types.count, types.count, leaps, transitions, types.count, abbreviations.count] {
            out += Self.bigEndian(Int64(count), size: 4)
        }
        return out
    }

    func block(_ transitions: [(at: Int64, type: UInt8)], _ leaps: [(at: Int64, correction: Int32)], timeSize: Int)
        -> [UInt8]
    {
        var out: [UInt8] = []
        for t in transitions { out += Self.bigEndian(t.at, size: timeSize) }
        out += transitions.map(\.type)
        for t in types { out += Self.bigEndian(Int64(t.offset), size: 4) + [t.isDaylight ? 1 : 0, t.abbreviation] }
        out += abbreviations
        for l in leaps { out += Self.bigEndian(l.at, size: timeSize) + Self.bigEndian(Int64(l.correction), size: 4) }
        out += [UInt8](repeating: 0, count: types.count * 2)  // standard/wall and UT/local indicators
        return out
    }

    static func bigEndian(_ value: Int64, size: Int) -> [UInt8] {
        (0..<size).reversed().map { UInt8(truncatingIfNeeded: value >> (8 * $0)) }
    }

    /// Berlin-like: CET, and CEST from 2026-03-29T01:00Z to 2026-10-25T01:00Z.
    static var berlin2026: TZifFile {
        var file = TZifFile()
        file.types = [LocalType(offset: 3600), LocalType(offset: 7200, isDaylight: true, abbreviation: 4)]
        file.abbreviations = Array("CET\0CEST\0".utf8)
        file.transitions = [(1_774_746_000, 1), (1_792_890_000, 0)]
        file.footer = "CET-1CEST,M3.5.0,M10.5.0/3"
        return file
    }
}
