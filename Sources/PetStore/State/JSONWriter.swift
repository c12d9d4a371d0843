/// JSON written straight into UTF-8 bytes, the very bytes FoundationEssentials' `JSONEncoder`
/// wrote for the store (`[.sortedKeys, .withoutEscapingSlashes]`), so a file reads the same
/// whichever build wrote it: no white space; strings escaped as its `JSONWriter` escapes them
/// (`\"`, `\\`, the short forms `\b \f \n \r \t`, other control characters as `\u00xx` in lower
/// case; `/`, DEL and all non-ASCII as they are); integers in decimal; doubles as their
/// `description` without a trailing `.0`. The caller writes an object's keys in `JSONEncoder`'s
/// order, by their UTF-8 bytes. `StateEncodingTests` checks every type against `JSONEncoder`.
///
/// `JSONEncoder` went through `Codable`'s generic containers and re-encoded the whole state at
/// every change: about 40 % of a mutation's CPU in the daemon (docs/RELIABILITY.md §1).
struct JSONWriter {
    private(set) var bytes: [UInt8] = []
    /// Whether a NaN or an infinity was written (as `null`): JSON has no such numbers, and the
    /// store refuses to write them, as `JSONEncoder` did.
    private(set) var wroteNonFiniteNumber = false

    init(capacity: Int = 0) { bytes.reserveCapacity(capacity) }

    mutating func beginObject() { bytes.append(Self.openBrace) }
    mutating func endObject() { bytes.append(UInt8(ascii: "}")) }
    mutating func beginArray() { bytes.append(Self.openBracket) }
    mutating func endArray() { bytes.append(UInt8(ascii: "]")) }

    /// An object's key that needs no escaping (the store's own keys), and its colon.
    mutating func key(_ name: StaticString) {
        separate(after: Self.openBrace)
        bytes.append(Self.quote)
        name.withUTF8Buffer { bytes.append(contentsOf: $0) }
        bytes.append(Self.quote)
        bytes.append(Self.colon)
    }

    /// An object's key from data, escaped, and its colon.
    mutating func key(_ name: String) {
        separate(after: Self.openBrace)
        string(name)
        bytes.append(Self.colon)
    }

    /// The newline that ends a file's or a line's JSON.
    mutating func newline() { bytes.append(UInt8(ascii: "\n")) }

    /// Before each element of an array.
    mutating func element() { separate(after: Self.openBracket) }

    /// A comma, unless this is the first member: no value ends in `{` or `[`, so the last byte
    /// being the opening one means nothing has been written inside yet.
    private mutating func separate(after opening: UInt8) {
        if bytes.last != opening { bytes.append(Self.comma) }
    }

    mutating func null() { append("null") }
    mutating func bool(_ value: Bool) { append(value ? "true" : "false") }

    mutating func integer(_ value: Int) { integer(Int64(value)) }

    mutating func integer(_ value: Int64) {
        if value < 0 { bytes.append(UInt8(ascii: "-")) }
        integer(value.magnitude)
    }

    mutating func integer(_ value: UInt64) {
        // Digits from the right into 20 bytes (UInt64.max has 20), then one append.
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { digits in
            var start = 20
            var rest = value
            repeat {
                start -= 1
                digits[start] = UInt8(ascii: "0") + UInt8(rest % 10)
                rest /= 10
            } while rest > 0
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: digits[start...]))
        }
    }

    /// A string of fields `0 ≤ n < 10^width`, each zero-padded to its width, with `separator`
    /// between them: the text forms of dates (`2026-03-02`) and times (`09:05`), without making
    /// a `String` each time.
    mutating func paddedFields(_ fields: [(value: Int, width: Int)], separator: UInt8) {
        bytes.append(Self.quote)
        for (i, field) in fields.enumerated() {
            if i > 0 { bytes.append(separator) }
            var divisor = 1
            for _ in 1..<field.width { divisor *= 10 }
            while divisor > 0 {
                bytes.append(UInt8(ascii: "0") + UInt8(field.value / divisor % 10))
                divisor /= 10
            }
        }
        bytes.append(Self.quote)
    }

    mutating func double(_ value: Double) {
        guard value.isFinite else {
            wroteNonFiniteNumber = true
            return null()
        }
        var text = value.description
        if text.hasSuffix(".0") { text.removeLast(2) }
        bytes.append(contentsOf: text.utf8)
    }

    /// A string, quoted, with what `JSONEncoder` escapes escaped.
    mutating func string(_ value: String) {
        bytes.append(Self.quote)
        var text = value
        text.withUTF8 { utf8 in
            var mark = 0
            for i in utf8.indices where utf8[i] < 0x20 || utf8[i] == Self.quote || utf8[i] == Self.backslash {
                bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[mark..<i]))
                escape(utf8[i])
                mark = i + 1
            }
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[mark...]))
        }
        bytes.append(Self.quote)
    }

    private mutating func escape(_ byte: UInt8) {
        bytes.append(Self.backslash)
        switch byte {
        case Self.quote, Self.backslash: bytes.append(byte)
        case 0x08: bytes.append(UInt8(ascii: "b"))
        case 0x0C: bytes.append(UInt8(ascii: "f"))
        case 0x0A: bytes.append(UInt8(ascii: "n"))
        case 0x0D: bytes.append(UInt8(ascii: "r"))
        case 0x09: bytes.append(UInt8(ascii: "t"))
        default:
            append("u00")
            bytes.append(Self.hexDigits[Int(byte >> 4)])
            bytes.append(Self.hexDigits[Int(byte & 0xF)])
        }
    }

    private mutating func append(_ text: StaticString) {
        text.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    private static let quote = UInt8(ascii: "\"")
    private static let backslash = UInt8(ascii: "\\")
    private static let colon = UInt8(ascii: ":")
    private static let comma = UInt8(ascii: ",")
    private static let openBrace = UInt8(ascii: "{")
    private static let openBracket = UInt8(ascii: "[")
    private static let hexDigits = Array("0123456789abcdef".utf8)
}
