/// One pass over a document's bytes, making `JSONDocument`'s tokens: an explicit stack (never
/// recursion), at most `JSONDocument.maxDepth` deep, and each object's keys checked for a repeat
/// as they are read (compared in turn while an object has few, hashed once it has many).
struct JSONTokenizer {
    private let source: [UInt8]
    private(set) var tokens: [UInt64] = []

    private struct Frame {
        var token: Int
        var isObject: Bool
        /// Where this object's keys start in `keys`.
        var keysStart: Int
        /// The keys by hash, once the object has more than a few.
        var seen: [UInt64: [Int]]? = nil
        /// Where the container opens in the bytes, and the token of the key it is the value of
        /// (-1: an array's element, or the root).
        var at: Int = 0
        var key: Int = -1
    }

    private var stack: [Frame] = []
    /// The key tokens of the open objects, innermost last.
    private var keys: [Int] = []

    /// Streaming (`JSONStream`): called with each value that ends at most `spanDepth` deep, after
    /// which the value's tokens are dropped (only the open containers and their keys are kept).
    private var sink: ((JSONSpan) -> Void)?
    private var spanDepth = 0

    init(_ bytes: [UInt8]) {
        source = bytes
        tokens.reserveCapacity(min(bytes.count / 6 + 16, 1 << 20))
    }

    /// A streaming pass over `b` (see `JSONStream.read`).
    init(streaming spanDepth: Int, _ sink: @escaping (JSONSpan) -> Void) {
        source = []
        self.spanDepth = spanDepth
        self.sink = sink
    }

    mutating func stream(_ b: UnsafeBufferPointer<UInt8>) throws(JSONReadError) {
        guard b.count <= JSONStream.maxBytes else {
            throw JSONReadError(problem: "the document is larger than \(JSONStream.maxBytes >> 20) MiB", offset: 0)
        }
        try parse(b)
    }

    /// A value at `token` ended (its bytes `start..<end`): when streaming, told to the sink and
    /// forgotten.
    private mutating func completed(_ token: Int, _ start: Int, _ end: Int, _ b: UnsafeBufferPointer<UInt8>) {
        guard let sink, !stack.isEmpty else { return }
        if stack.count <= spanDepth {
            var path: [String?] = []
            for frame in stack.dropFirst() {
                path.append(frame.key < 0 ? nil : String(decoding: keyBytes(frame.key, b), as: UTF8.self))
            }
            let parentIsObject = stack[stack.count - 1].isObject
            path.append(parentIsObject ? String(decoding: keyBytes(token - 1, b), as: UTF8.self) : nil)
            sink(JSONSpan(path: path, start: start, end: end))
        }
        tokens.removeSubrange(token...)
    }

    mutating func run() throws(JSONReadError) {
        let source = self.source
        guard source.count <= JSONDocument.maxBytes else {
            throw JSONReadError(problem: "the document is larger than \(JSONDocument.maxBytes >> 20) MiB", offset: 0)
        }
        #if compiler(>=6.1)
            try source.withUnsafeBufferPointer { (b) throws(JSONReadError) in try parse(b) }
        #else
            // Swift 6.0's withUnsafeBufferPointer rethrows `any Error` (Debian 13's swiftlang is
            // 6.0.3): the typed error comes out as a value.
            let failure = source.withUnsafeBufferPointer { (b) -> JSONReadError? in
                do throws(JSONReadError) { try parse(b) } catch { return error }
                return nil
            }
            if let failure { throw failure }
        #endif
    }

    private static func isSpace(_ c: UInt8) -> Bool { c == 0x20 || c == 0x0A || c == 0x0D || c == 0x09 }

    private mutating func parse(_ b: UnsafeBufferPointer<UInt8>) throws(JSONReadError) {
        let n = b.count
        var p = 0
        var needValue = true
        func fail(_ problem: String, _ at: Int) -> JSONReadError { JSONReadError(problem: problem, offset: at) }
        while true {
            while p < n, Self.isSpace(b[p]) { p += 1 }
            if needValue {
                guard p < n else { throw fail(n == 0 ? "the document is empty" : "the document ends early", p) }
                let c = b[p]
                switch c {
                case UInt8(ascii: "{"), UInt8(ascii: "["):
                    guard stack.count < JSONDocument.maxDepth else {
                        throw fail("it nests deeper than \(JSONDocument.maxDepth) arrays or objects", p)
                    }
                    let isObject = c == UInt8(ascii: "{")
                    let parentKey = stack.last?.isObject == true ? tokens.count - 1 : -1
                    stack.append(
                        Frame(token: tokens.count, isObject: isObject, keysStart: keys.count, at: p, key: parentKey))
                    append(isObject ? .object : .array, start: p, payload: 0)
                    p += 1
                    while p < n, Self.isSpace(b[p]) { p += 1 }
                    if p < n, b[p] == (isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")) {
                        p += 1
                        close(b, p)
                        needValue = false
                    } else if isObject {
                        try key(b, &p)
                    }
                case UInt8(ascii: "\""):
                    let at = p
                    try string(b, &p)
                    needValue = false
                    completed(tokens.count - 1, at, p, b)
                case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                    let at = p
                    try number(b, &p)
                    needValue = false
                    completed(tokens.count - 1, at, p, b)
                case UInt8(ascii: "t"), UInt8(ascii: "f"), UInt8(ascii: "n"):
                    let at = p
                    if c == UInt8(ascii: "t") {
                        try literal(b, &p, "true", .true)
                    } else if c == UInt8(ascii: "f") {
                        try literal(b, &p, "false", .false)
                    } else {
                        try literal(b, &p, "null", .null)
                    }
                    needValue = false
                    completed(tokens.count - 1, at, p, b)
                default: throw fail("a value was expected", p)
                }
            } else {
                guard let top = stack.last else {
                    guard p == n else { throw fail("something follows the document", p) }
                    return
                }
                guard p < n else { throw fail("the document ends early", p) }
                let c = b[p]
                if c == UInt8(ascii: ",") {
                    p += 1
                    if top.isObject {
                        while p < n, Self.isSpace(b[p]) { p += 1 }
                        try key(b, &p)
                    }
                    needValue = true
                } else if c == (top.isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")) {
                    p += 1
                    close(b, p)
                } else {
                    throw fail(top.isObject ? "a , or } was expected" : "a , or ] was expected", p)
                }
            }
        }
    }

    /// Kind (3 bits), flag, start (32 bits), payload (28 bits): `JSONDocument`'s layout.
    private mutating func append(_ kind: JSONKind, start: Int, payload: Int, flag: Bool = false) {
        tokens.append(
            UInt64(kind.rawValue) << 61 | (flag ? 1 << 60 : 0) | UInt64(start) << 28
                | UInt64(truncatingIfNeeded: payload))
    }

    private mutating func close(_ b: UnsafeBufferPointer<UInt8>, _ end: Int) {
        let frame = stack.removeLast()
        tokens[frame.token] |= UInt64(tokens.count)
        if frame.isObject { keys.removeSubrange(frame.keysStart...) }
        completed(frame.token, frame.at, end, b)
    }

    /// A member's key and its colon; refuses a key the object already holds.
    private mutating func key(_ b: UnsafeBufferPointer<UInt8>, _ p: inout Int) throws(JSONReadError) {
        guard p < b.count, b[p] == UInt8(ascii: "\"") else {
            throw JSONReadError(problem: "a key in quotes was expected", offset: p)
        }
        let at = p
        let token = tokens.count
        try string(b, &p)
        try checkRepeat(token, b, at)
        while p < b.count, Self.isSpace(b[p]) { p += 1 }
        guard p < b.count, b[p] == UInt8(ascii: ":") else {
            throw JSONReadError(problem: "a : was expected", offset: p)
        }
        p += 1
    }

    private mutating func checkRepeat(_ token: Int, _ b: UnsafeBufferPointer<UInt8>, _ at: Int) throws(JSONReadError) {
        let top = stack.count - 1
        let held = keys.count - stack[top].keysStart
        func repeated() -> JSONReadError {
            let shown = String(decoding: keyBytes(token, b).prefix(40), as: UTF8.self)
            return JSONReadError(problem: "an object holds the key \"\(shown)\" twice", offset: at)
        }
        if held < 16 {
            for k in keys[stack[top].keysStart...] where sameKey(k, token, b) { throw repeated() }
            keys.append(token)
            if held + 1 == 16 {
                var seen: [UInt64: [Int]] = [:]
                for k in keys[stack[top].keysStart...] { seen[hash(keyBytes(k, b)), default: []].append(k) }
                stack[top].seen = seen
            }
            return
        }
        let h = hash(keyBytes(token, b))
        if let same = stack[top].seen?[h] {
            for k in same where sameKey(k, token, b) { throw repeated() }
        }
        stack[top].seen?[h, default: []].append(token)
        keys.append(token)
    }

    private func keyBytes(_ token: Int, _ b: UnsafeBufferPointer<UInt8>) -> [UInt8] {
        let t = tokens[token]
        let s = Int((t >> 28) & 0xFFFF_FFFF)
        let n = Int(t & 0x0FFF_FFFF)
        guard t & (1 << 60) != 0 else { return Array(b[s..<s + n]) }
        return Self.unescape(b, s, s + n)
    }

    private func sameKey(_ x: Int, _ y: Int, _ b: UnsafeBufferPointer<UInt8>) -> Bool {
        let tx = tokens[x]
        let ty = tokens[y]
        if (tx | ty) & (1 << 60) == 0 {
            let nx = Int(tx & 0x0FFF_FFFF)
            guard nx == Int(ty & 0x0FFF_FFFF) else { return false }
            let sx = Int((tx >> 28) & 0xFFFF_FFFF)
            let sy = Int((ty >> 28) & 0xFFFF_FFFF)
            for k in 0..<nx where b[sx + k] != b[sy + k] { return false }
            return true
        }
        return keyBytes(x, b) == keyBytes(y, b)
    }

    /// FNV-1a: the same key always lands in the same bucket (a process's `Hasher` seed would too,
    /// but this one is cheaper for short keys).
    private func hash(_ bytes: [UInt8]) -> UInt64 {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        for c in bytes { h = (h ^ UInt64(c)) &* 0x100_0000_01b3 }
        return h
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

    /// A string from its opening quote: no control character, escapes as RFC 8259 has them
    /// (a \u surrogate only in a pair), and well-formed UTF-8.
    private mutating func string(_ b: UnsafeBufferPointer<UInt8>, _ p: inout Int) throws(JSONReadError) {
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

    private mutating func number(_ b: UnsafeBufferPointer<UInt8>, _ p: inout Int) throws(JSONReadError) {
        let n = b.count
        let start = p
        var i = p
        func digits() -> Int {
            let from = i
            while i < n, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(b[i]) { i += 1 }
            return i - from
        }
        if b[i] == UInt8(ascii: "-") { i += 1 }
        if i < n, b[i] == UInt8(ascii: "0") {
            i += 1
        } else if digits() == 0 {
            throw JSONReadError(problem: "a number lacks its digits", offset: i)
        }
        var integer = true
        if i < n, b[i] == UInt8(ascii: ".") {
            i += 1
            integer = false
            guard digits() > 0 else { throw JSONReadError(problem: "a number's fraction lacks its digits", offset: i) }
        }
        if i < n, b[i] == UInt8(ascii: "e") || b[i] == UInt8(ascii: "E") {
            i += 1
            integer = false
            if i < n, b[i] == UInt8(ascii: "+") || b[i] == UInt8(ascii: "-") { i += 1 }
            guard digits() > 0 else { throw JSONReadError(problem: "a number's exponent lacks its digits", offset: i) }
        }
        // What no `Double` holds is no number of ours (JSONDecoder refused it too).
        if !integer || i - start > 300 {
            let text = String(decoding: UnsafeBufferPointer(rebasing: b[start..<i]), as: UTF8.self)
            guard let d = Double(text), d.isFinite else {
                throw JSONReadError(problem: "a number is beyond what a double holds", offset: start)
            }
        }
        guard i - start < JSONStream.longestValue else {
            throw JSONReadError(problem: "a number is beyond what a double holds", offset: start)
        }
        append(.number, start: start, payload: i - start, flag: integer)
        p = i
    }

    private mutating func literal(
        _ b: UnsafeBufferPointer<UInt8>, _ p: inout Int, _ word: StaticString, _ kind: JSONKind
    ) throws(JSONReadError) {
        let w = UnsafeBufferPointer(start: word.utf8Start, count: word.utf8CodeUnitCount)
        guard p + w.count <= b.count, (0..<w.count).allSatisfy({ b[p + $0] == w[$0] }) else {
            throw JSONReadError(problem: "a value was expected", offset: p)
        }
        append(kind, start: p, payload: w.count)
        p += w.count
    }
}
