/// Reads TZif bytes front to back, big-endian, refusing to read past the end.
struct TZifReader {
    let bytes: [UInt8]
    var position = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    var remaining: Int { bytes.count - position }

    /// `TZif`, the version byte, 15 reserved bytes and six 32-bit counts.
    mutating func header() throws(ZoneError) -> TZifHeader {
        let start = position
        guard remaining >= TZifHeader.size else {
            throw ZoneError("truncated: \(remaining) bytes where a \(TZifHeader.size)-byte header starts")
        }
        guard bytes[start..<start + 4].elementsEqual("TZif".utf8) else { throw ZoneError("not TZif data (bad magic)") }
        let version = bytes[start + 4]
        position += 20
        var counts: [Int] = []
        for _ in 0..<6 { counts.append(Int(truncatingIfNeeded: UInt32(truncatingIfNeeded: integer(size: 4)))) }
        return TZifHeader(
            version: version, isutcnt: counts[0], isstdcnt: counts[1], leapcnt: counts[2], timecnt: counts[3],
            typecnt: counts[4], charcnt: counts[5])
    }

    mutating func skip(_ count: Int, _ what: String) throws(ZoneError) {
        guard count <= remaining else { throw truncated(what, count) }
        position += count
    }

    /// One data block (RFC 8536 §3.2), with `timeSize`-byte times.
    mutating func block(_ header: TZifHeader, timeSize: Int) throws(ZoneError) -> TZifBlock {
        try header.check()
        let length = header.dataLength(timeSize: timeSize)
        guard length <= remaining else { throw truncated("the data its header announces", length) }
        var block = TZifBlock()
        block.times = (0..<header.timecnt).map { _ in integer(size: timeSize) }
        block.typeIndices = (0..<header.timecnt).map { _ in Int(byte()) }
        for _ in 0..<header.typecnt {
            block.offsets.append(Int32(truncatingIfNeeded: integer(size: 4)))
            block.isDaylight.append(byte() != 0)
            guard Int(byte()) < header.charcnt else { throw ZoneError("an abbreviation index past the abbreviations") }
        }
        position += header.charcnt
        for _ in 0..<header.leapcnt {
            block.leapTimes.append(integer(size: timeSize))
            block.leapCorrections.append(Int32(truncatingIfNeeded: integer(size: 4)))
        }
        position += header.isstdcnt + header.isutcnt
        try Self.check(block, types: header.typecnt)
        return block
    }

    /// The rules RFC 8536 sets for the values, and offsets within ±25 hours.
    static func check(_ block: TZifBlock, types: Int) throws(ZoneError) {
        guard zip(block.times, block.times.dropFirst()).allSatisfy({ $0 < $1 }) else {
            throw ZoneError("transition times that are not in ascending order")
        }
        guard block.typeIndices.allSatisfy({ $0 < types }) else {
            throw ZoneError("a transition to a type that does not exist")
        }
        guard block.offsets.allSatisfy({ (-89_999...93_599).contains($0) }) else {
            throw ZoneError("an offset from UTC beyond 25 hours")
        }
        guard zip(block.leapTimes, block.leapTimes.dropFirst()).allSatisfy({ $0 < $1 }),
            block.leapCorrections.allSatisfy({ (-99_999...99_999).contains($0) })
        else { throw ZoneError("a leap second table out of order or out of range") }
    }

    /// The footer: a POSIX TZ rule between two newlines (empty: none).
    mutating func footer() throws(ZoneError) -> PosixTZ? {
        guard remaining >= 2, bytes[position] == UInt8(ascii: "\n") else {
            throw ZoneError("truncated: the footer (a newline, a POSIX TZ rule, a newline) is missing")
        }
        guard let end = bytes[(position + 1)...].firstIndex(of: UInt8(ascii: "\n")) else {
            throw ZoneError("malformed footer: no newline after its rule")
        }
        let text = String(decoding: bytes[(position + 1)..<end], as: UTF8.self)
        position = end + 1
        guard !text.isEmpty else { return nil }
        do {
            return try PosixTZ(parsing: text)
        } catch {
            throw ZoneError("malformed footer: \(error.message)")
        }
    }

    /// A big-endian signed integer of `size` bytes (the caller has checked that they are there).
    mutating func integer(size: Int) -> Int64 {
        var value: UInt64 = 0
        for b in bytes[position..<position + size] { value = value << 8 | UInt64(b) }
        position += size
        // Sign-extend from `size` bytes.
        let shift = UInt64(64 - 8 * size)
        return Int64(bitPattern: value << shift) >> shift
    }

    mutating func byte() -> UInt8 {
        defer { position += 1 }
        return bytes[position]
    }

    func truncated(_ what: String, _ needed: Int) -> ZoneError {
        ZoneError("truncated: \(what) needs \(needed) bytes, \(remaining) remain")
    }
}
