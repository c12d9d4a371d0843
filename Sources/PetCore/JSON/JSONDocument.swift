/// A JSON document (RFC 8259, strictly) read once into a flat list of tokens: the one reader of
/// every file the store reads and of an import (petprogress(7) §5). It costs time linear in the
/// document and 8 bytes a token beside the bytes; no tree of values is built, and what nobody
/// asks for is never decoded. Nesting deeper than `maxDepth` is refused, and so is an object that
/// holds a key twice (tools disagree on which copy wins). Values are read through `decode(_:)`, a
/// `Decoder` over the tokens, or walked with `kind(at:)`, `members(of:)` and `elements(of:)`.
public final class JSONDocument: Sendable {
    /// The deepest nesting read: 64 arrays or objects one inside the other.
    public static let maxDepth = 64
    /// The largest document a token can point into (2²⁸ bytes).
    public static let maxBytes = 1 << 28

    public let bytes: [UInt8]
    /// One per value and per key, in document order: kind (3 bits), a flag (strings: holds an
    /// escape; numbers: an integer's syntax), the start offset (32 bits), and 28 bits of payload
    /// (containers: the index after their last token; strings and numbers: their length in bytes).
    let tokens: [UInt64]

    /// Reads `bytes` whole; throws what is wrong and where.
    public init(_ bytes: [UInt8]) throws(JSONReadError) {
        var reader = JSONTokenizer(bytes)
        try reader.run()
        self.bytes = bytes
        self.tokens = reader.tokens
    }

    /// The index of the document's root value.
    public var root: Int { 0 }

    public func kind(at index: Int) -> JSONKind { JSONKind(rawValue: UInt8(truncatingIfNeeded: tokens[index] >> 61)) ?? .null }
    func flag(at index: Int) -> Bool { tokens[index] & (1 << 60) != 0 }
    func start(at index: Int) -> Int { Int((tokens[index] >> 28) & 0xFFFF_FFFF) }
    func payload(at index: Int) -> Int { Int(tokens[index] & 0x0FFF_FFFF) }

    /// The index of the value after the one at `index` (past everything a container holds).
    public func next(after index: Int) -> Int {
        switch kind(at: index) {
        case .array, .object: payload(at: index)
        default: index + 1
        }
    }

    /// An object's members, as (key token, value token) pairs, in document order.
    public func members(of index: Int) -> [(key: Int, value: Int)] {
        guard kind(at: index) == .object else { return [] }
        var out: [(key: Int, value: Int)] = []
        var i = index + 1
        let end = payload(at: index)
        while i < end {
            out.append((i, i + 1))
            i = next(after: i + 1)
        }
        return out
    }

    /// An array's elements' tokens, in order.
    public func elements(of index: Int) -> [Int] {
        guard kind(at: index) == .array else { return [] }
        var out: [Int] = []
        var i = index + 1
        let end = payload(at: index)
        while i < end {
            out.append(i)
            i = next(after: i)
        }
        return out
    }

    /// The value of member `key` of the object at `index`, if it has one.
    public func member(_ key: String, of index: Int) -> Int? {
        guard kind(at: index) == .object else { return nil }
        var name = key
        return name.withUTF8 { wanted in
            var i = index + 1
            let end = payload(at: index)
            while i < end {
                if keyEquals(i, wanted) { return i + 1 }
                i = next(after: i + 1)
            }
            return nil
        }
    }

    /// Whether the string token at `index` spells `wanted` (after its escapes).
    func keyEquals(_ index: Int, _ wanted: UnsafeBufferPointer<UInt8>) -> Bool {
        let s = start(at: index)
        let n = payload(at: index)
        if !flag(at: index) {
            guard n == wanted.count else { return false }
            return bytes.withUnsafeBufferPointer { all in
                for k in 0..<n where all[s + k] != wanted[k] { return false }
                return true
            }
        }
        return unescaped(at: index).elementsEqual(wanted)
    }

    /// A string token's text.
    public func string(at index: Int) -> String? {
        guard kind(at: index) == .string else { return nil }
        let s = start(at: index)
        if !flag(at: index) { return String(decoding: bytes[s..<s + payload(at: index)], as: UTF8.self) }
        return String(decoding: unescaped(at: index), as: UTF8.self)
    }

    /// A string token's bytes with its escapes resolved (the tokenizer checked them).
    func unescaped(at index: Int) -> [UInt8] {
        let s = start(at: index)
        let end = s + payload(at: index)
        return bytes.withUnsafeBufferPointer { JSONTokenizer.unescape($0, s, end) }
    }

    /// A number token's text.
    func numberText(at index: Int) -> Substring {
        let s = start(at: index)
        return Substring(String(decoding: bytes[s..<s + payload(at: index)], as: UTF8.self))
    }

    /// A number token as an integer of its type: nil when it has none (a fraction, or too large).
    public func integer<I: FixedWidthInteger>(at index: Int, as type: I.Type = I.self) -> I? {
        guard kind(at: index) == .number else { return nil }
        guard flag(at: index) else {
            guard let d = double(at: index) else { return nil }
            return I(exactly: d)
        }
        var i = start(at: index)
        let end = i + payload(at: index)
        let negative = bytes[i] == UInt8(ascii: "-")
        if negative { i += 1 }
        var magnitude: UInt64 = 0
        while i < end {
            let (m, o1) = magnitude.multipliedReportingOverflow(by: 10)
            let (a, o2) = m.addingReportingOverflow(UInt64(bytes[i] &- UInt8(ascii: "0")))
            if o1 || o2 { return nil }
            magnitude = a
            i += 1
        }
        if !negative { return I(exactly: magnitude) }
        if magnitude <= UInt64(Int64.max) { return I(exactly: -Int64(magnitude)) }
        return magnitude == UInt64(Int64.max) + 1 ? I(exactly: Int64.min) : nil
    }

    /// A number token as a finite `Double`; nil when it is not a number or is beyond a `Double`.
    public func double(at index: Int) -> Double? {
        guard kind(at: index) == .number, let d = Double(numberText(at: index)), d.isFinite else { return nil }
        return d
    }

    /// The root value decoded as `T`.
    public func decode<T: Decodable>(_ type: T.Type, at index: Int = 0) throws -> T {
        try TapeDecoder(document: self, index: index, codingPath: []).decodeValue(T.self, at: index)
    }
}

/// What a JSON token is.
public enum JSONKind: UInt8, Sendable {
    case null, `false`, `true`, number, string, array, object
}

/// Why bytes are not a JSON document this reader takes: a sentence, and the byte offset.
public struct JSONReadError: Error, Sendable, CustomStringConvertible {
    public let problem: String
    public let offset: Int
    public var description: String { "\(problem) at byte \(offset)" }
}
