/// Strings as RFC 8259 has them: read and checked (escapes, surrogate pairs, UTF-8), and their
/// escapes undone where a key or a value needs the bytes.
extension JSONTokenizer {
    /// A string from its opening quote: no control character, escapes as RFC 8259 has them
    /// (a \u surrogate only in a pair), and well-formed UTF-8.
    mutating func string(_ b: UnsafeBufferPointer<UInt8>, _ p: inout Int) throws(JSONReadError) {
        let n = b.count
        let start = p + 1
        var i = start
        var escaped = false
        func fail(_ problem: String) -> JSONReadError { JSONReadError(problem: problem, offset: i) }
        while true {
            guard i < n else { throw JSONReadError(problem: "a string is not closed", offset: p) }
            let c = b[i]
            if c == UInt8(ascii: "\"") { break }
            if c < 0x20 { throw fail("a string holds a control character") }
            if c == UInt8(ascii: "\\") {
                escaped = true
                guard i + 1 < n else { throw fail("a string is not closed") }
                switch b[i + 1] {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"), UInt8(ascii: "f"),
                    UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
                    i += 2
                case UInt8(ascii: "u"):
                    guard i + 6 <= n, (2..<6).allSatisfy({ Self.isHex(b[i + $0]) }) else {
                        throw fail("a \\u escape lacks its four hex digits")
                    }
                    let v = Self.hex4(b, i + 2)
                    i += 6
                    if (0xDC00...0xDFFF).contains(v) { throw fail("a \\u escape is half a surrogate pair") }
                    if (0xD800...0xDBFF).contains(v) {
                        guard i + 6 <= n, b[i] == UInt8(ascii: "\\"), b[i + 1] == UInt8(ascii: "u"),
                            (2..<6).allSatisfy({ Self.isHex(b[i + $0]) }),
                            (0xDC00...0xDFFF).contains(Self.hex4(b, i + 2))
                        else { throw fail("a \\u escape is half a surrogate pair") }
                        i += 6
                    }
                default: throw fail("a string holds an unknown escape")
                }
                continue
            }
            if c < 0x80 {
                i += 1
                continue
            }
            // UTF-8 (RFC 3629): no overlong forms, no surrogates, nothing past U+10FFFF.
            let (count, low, high): (Int, UInt8, UInt8) =
                switch c {
                case 0xC2...0xDF: (1, 0x80, 0xBF)
                case 0xE0: (2, 0xA0, 0xBF)
                case 0xE1...0xEC, 0xEE...0xEF: (2, 0x80, 0xBF)
                case 0xED: (2, 0x80, 0x9F)
                case 0xF0: (3, 0x90, 0xBF)
                case 0xF1...0xF3: (3, 0x80, 0xBF)
                case 0xF4: (3, 0x80, 0x8F)
                default: (0, 0, 0)
                }
            var wellFormed = count > 0 && i + count < n && (low...high).contains(b[i + 1])
            var k = 2
            while wellFormed, k <= count {
                wellFormed = (0x80...0xBF).contains(b[i + k])
                k += 1
            }
            guard wellFormed else { throw fail("a string is not UTF-8") }
            i += count + 1
        }
        guard i - start < JSONStream.longestValue else {
            throw JSONReadError(problem: "a string is longer than \(JSONStream.longestValue >> 20) MiB", offset: start)
        }
        append(.string, start: start, payload: i - start, flag: escaped)
        p = i + 1
    }

    static func hex4(_ b: UnsafeBufferPointer<UInt8>, _ i: Int) -> UInt32 {
        var v: UInt32 = 0
        for k in 0..<4 {
            let c = b[i + k]
            let d: UInt32 =
                switch c {
                case UInt8(ascii: "0")...UInt8(ascii: "9"): UInt32(c - UInt8(ascii: "0"))
                case UInt8(ascii: "a")...UInt8(ascii: "f"): UInt32(c - UInt8(ascii: "a") + 10)
                default: UInt32(c &- UInt8(ascii: "A") &+ 10)
                }
            v = v << 4 | d
        }
        return v
    }

    private static func isHex(_ c: UInt8) -> Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(c) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(c)
            || (UInt8(ascii: "A")...UInt8(ascii: "F")).contains(c)
    }

    static func unescape(_ b: UnsafeBufferPointer<UInt8>, _ s: Int, _ end: Int) -> [UInt8] {
        var out: [UInt8] = []
        var i = s
        while i < end {
            let c = b[i]
            guard c == UInt8(ascii: "\\") else {
                out.append(c)
                i += 1
                continue
            }
            let e = b[i + 1]
            i += 2
            switch e {
            case UInt8(ascii: "b"): out.append(0x08)
            case UInt8(ascii: "f"): out.append(0x0C)
            case UInt8(ascii: "n"): out.append(0x0A)
            case UInt8(ascii: "r"): out.append(0x0D)
            case UInt8(ascii: "t"): out.append(0x09)
            case UInt8(ascii: "u"):
                var scalar = hex4(b, i)
                i += 4
                if (0xD800...0xDBFF).contains(scalar) {
                    scalar = 0x10000 + ((scalar - 0xD800) << 10) + (hex4(b, i + 2) - 0xDC00)
                    i += 6
                }
                out.append(contentsOf: Unicode.Scalar(scalar).map { Array(String($0).utf8) } ?? [0xEF, 0xBF, 0xBD])
            default: out.append(e)
            }
        }
        return out
    }
}
