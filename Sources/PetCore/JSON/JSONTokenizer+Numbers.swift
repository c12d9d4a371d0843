/// Numbers (only what a `Double` holds) and the literals `true`, `false` and `null`.
extension JSONTokenizer {
    mutating func number(_ b: UnsafeBufferPointer<UInt8>, _ p: inout Int) throws(JSONReadError) {
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

    mutating func literal(
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
