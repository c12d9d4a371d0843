/// One pass over a document's bytes, making `JSONDocument`'s tokens: an explicit stack (never
/// recursion), at most `JSONDocument.maxDepth` deep, and each object's keys checked for a repeat
/// as they are read (compared in turn while an object has few, hashed once it has many).
struct JSONTokenizer {
    private let source: [UInt8]
    private(set) var tokens: [UInt64] = []

    struct Frame {
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

    var stack: [Frame] = []
    /// The key tokens of the open objects, innermost last.
    var keys: [Int] = []

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

    static func isSpace(_ c: UInt8) -> Bool { c == 0x20 || c == 0x0A || c == 0x0D || c == 0x09 }

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
    mutating func append(_ kind: JSONKind, start: Int, payload: Int, flag: Bool = false) {
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
}
