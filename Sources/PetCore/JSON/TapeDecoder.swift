/// `Decodable` over a `JSONDocument`'s tokens: what `JSONDecoder` gave the store's types, with its
/// errors (`DecodingError` naming the coding path), read straight from the tokens. A keyed
/// container looks its keys up among its members (a stored object has a dozen); nothing is
/// copied out of the document until a value is asked for.
struct TapeDecoder: Decoder {
    let document: JSONDocument
    let index: Int
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        try expect(.object, at: index, path: codingPath, "a dictionary")
        return KeyedDecodingContainer(TapeKeyedContainer<Key>(document: document, index: index, codingPath: codingPath))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        try expect(.array, at: index, path: codingPath, "an array")
        return TapeUnkeyedContainer(document: document, index: index, codingPath: codingPath)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer { self }

    func expect(_ kind: JSONKind, at index: Int, path: [any CodingKey], _ what: String) throws {
        let found = document.kind(at: index)
        guard found == kind else {
            let context = DecodingError.Context(
                codingPath: path, debugDescription: "Expected to decode \(what) but found \(found.described) instead.")
            if found == .null { throw DecodingError.valueNotFound(Any.self, context) }
            throw DecodingError.typeMismatch(Any.self, context)
        }
    }

    /// The value at `index` as `T`: the primitive types read from their token, the others
    /// through their own `init(from:)`.
    func decodeValue<T: Decodable>(_ type: T.Type, at index: Int, path: [any CodingKey]? = nil) throws -> T {
        let path = path ?? codingPath
        if T.self == String.self, let v = try readString(at: index, path: path) as? T { return v }
        if T.self == Bool.self, let v = try readBool(at: index, path: path) as? T { return v }
        if T.self == Double.self, let v = try readDouble(at: index, path: path) as? T { return v }
        if T.self == Float.self, let v = Float(exactly: try readDouble(at: index, path: path)) as? T { return v }
        if let integer = T.self as? any FixedWidthInteger.Type,
            let v = try readInteger(integer, at: index, path: path) as? T
        {
            return v
        }
        return try T(from: TapeDecoder(document: document, index: index, codingPath: path))
    }

    func readString(at index: Int, path: [any CodingKey]) throws -> String {
        try expect(.string, at: index, path: path, "a string")
        return document.string(at: index) ?? ""
    }

    func readBool(at index: Int, path: [any CodingKey]) throws -> Bool {
        switch document.kind(at: index) {
        case .true: return true
        case .false: return false
        default:
            try expect(.true, at: index, path: path, "a bool")
            return false
        }
    }

    func readDouble(at index: Int, path: [any CodingKey]) throws -> Double {
        try expect(.number, at: index, path: path, "a number")
        guard let d = document.double(at: index) else {
            throw DecodingError.dataCorrupted(
                .init(
                    codingPath: path,
                    debugDescription: "Number \(document.numberText(at: index).prefix(40)) is not representable in Swift."))
        }
        return d
    }

    func readInteger<I: FixedWidthInteger>(_ type: I.Type, at index: Int, path: [any CodingKey]) throws -> I {
        try expect(.number, at: index, path: path, "a number")
        guard let v = document.integer(at: index, as: I.self) else {
            throw DecodingError.dataCorrupted(
                .init(
                    codingPath: path,
                    debugDescription: "Number \(document.numberText(at: index).prefix(40)) does not fit in \(I.self)."))
        }
        return v
    }
}

extension TapeDecoder: SingleValueDecodingContainer {
    func decodeNil() -> Bool { document.kind(at: index) == .null }
    func decode(_ type: Bool.Type) throws -> Bool { try readBool(at: index, path: codingPath) }
    func decode(_ type: String.Type) throws -> String { try readString(at: index, path: codingPath) }
    func decode(_ type: Double.Type) throws -> Double { try readDouble(at: index, path: codingPath) }
    func decode(_ type: Int.Type) throws -> Int { try readInteger(Int.self, at: index, path: codingPath) }
    func decode(_ type: Int64.Type) throws -> Int64 { try readInteger(Int64.self, at: index, path: codingPath) }
    func decode(_ type: UInt64.Type) throws -> UInt64 { try readInteger(UInt64.self, at: index, path: codingPath) }
    func decode<T: Decodable>(_ type: T.Type) throws -> T { try decodeValue(T.self, at: index) }
}

struct TapeKeyedContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let document: JSONDocument
    let index: Int
    let codingPath: [any CodingKey]

    private var decoder: TapeDecoder { TapeDecoder(document: document, index: index, codingPath: codingPath) }

    var allKeys: [Key] {
        document.members(of: index).compactMap { document.string(at: $0.key).flatMap(Key.init(stringValue:)) }
    }

    /// The value token of `key`, if the object has it.
    private func find(_ key: Key) -> Int? {
        if let i = key.intValue, key.stringValue.isEmpty { return document.member(String(i), of: index) }
        return document.member(key.stringValue, of: index)
    }

    private func require(_ key: Key) throws -> Int {
        guard let i = find(key) else {
            throw DecodingError.keyNotFound(
                key,
                .init(codingPath: codingPath, debugDescription: "No value associated with key \(key.stringValue.prefix(40))."))
        }
        return i
    }

    func contains(_ key: Key) -> Bool { find(key) != nil }

    func decodeNil(forKey key: Key) throws -> Bool { document.kind(at: try require(key)) == .null }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        try decoder.decodeValue(T.self, at: try require(key), path: codingPath + [key])
    }

    func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
        guard let i = find(key), document.kind(at: i) != .null else { return nil }
        return try decoder.decodeValue(T.self, at: i, path: codingPath + [key])
    }

    func decode(_ type: String.Type, forKey key: Key) throws -> String {
        try decoder.readString(at: try require(key), path: codingPath + [key])
    }

    func decodeIfPresent(_ type: String.Type, forKey key: Key) throws -> String? {
        guard let i = find(key), document.kind(at: i) != .null else { return nil }
        return try decoder.readString(at: i, path: codingPath + [key])
    }

    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool {
        try decoder.readBool(at: try require(key), path: codingPath + [key])
    }

    func decode(_ type: Int.Type, forKey key: Key) throws -> Int {
        try decoder.readInteger(Int.self, at: try require(key), path: codingPath + [key])
    }

    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 {
        try decoder.readInteger(Int64.self, at: try require(key), path: codingPath + [key])
    }

    func decodeIfPresent(_ type: Int64.Type, forKey key: Key) throws -> Int64? {
        guard let i = find(key), document.kind(at: i) != .null else { return nil }
        return try decoder.readInteger(Int64.self, at: i, path: codingPath + [key])
    }

    func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 {
        try decoder.readInteger(UInt64.self, at: try require(key), path: codingPath + [key])
    }

    func decode(_ type: Double.Type, forKey key: Key) throws -> Double {
        try decoder.readDouble(at: try require(key), path: codingPath + [key])
    }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws
        -> KeyedDecodingContainer<NestedKey>
    {
        try TapeDecoder(document: document, index: try require(key), codingPath: codingPath + [key])
            .container(keyedBy: NestedKey.self)
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        try TapeDecoder(document: document, index: try require(key), codingPath: codingPath + [key]).unkeyedContainer()
    }

    func superDecoder() throws -> any Decoder {
        guard let i = document.member("super", of: index) else { return decoder }
        return TapeDecoder(document: document, index: i, codingPath: codingPath)
    }

    func superDecoder(forKey key: Key) throws -> any Decoder {
        TapeDecoder(document: document, index: try require(key), codingPath: codingPath + [key])
    }
}

struct TapeUnkeyedContainer: UnkeyedDecodingContainer {
    let document: JSONDocument
    let index: Int
    let codingPath: [any CodingKey]
    private(set) var currentIndex = 0
    /// The next element's token.
    private var cursor: Int
    private let end: Int

    init(document: JSONDocument, index: Int, codingPath: [any CodingKey]) {
        self.document = document
        self.index = index
        self.codingPath = codingPath
        cursor = index + 1
        end = document.next(after: index)
    }

    var count: Int? { nil }
    var isAtEnd: Bool { cursor >= end }

    private struct IndexKey: CodingKey {
        let intValue: Int?
        var stringValue: String { "Index \(intValue ?? 0)" }
        init(_ i: Int) { intValue = i }
        init?(stringValue: String) { nil }
        init?(intValue: Int) { self.intValue = intValue }
    }

    private var path: [any CodingKey] { codingPath + [IndexKey(currentIndex)] }

    private func element() throws -> Int {
        guard !isAtEnd else {
            throw DecodingError.valueNotFound(
                Any.self, .init(codingPath: path, debugDescription: "Unkeyed container is at end."))
        }
        return cursor
    }

    private mutating func advance() {
        cursor = document.next(after: cursor)
        currentIndex += 1
    }

    mutating func decodeNil() throws -> Bool {
        guard document.kind(at: try element()) == .null else { return false }
        advance()
        return true
    }

    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
        let decoder = TapeDecoder(document: document, index: index, codingPath: codingPath)
        let value = try decoder.decodeValue(T.self, at: try element(), path: path)
        advance()
        return value
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws
        -> KeyedDecodingContainer<NestedKey>
    {
        let c = try TapeDecoder(document: document, index: try element(), codingPath: path).container(
            keyedBy: NestedKey.self)
        advance()
        return c
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        let c = try TapeDecoder(document: document, index: try element(), codingPath: path).unkeyedContainer()
        advance()
        return c
    }

    mutating func superDecoder() throws -> any Decoder {
        let d = TapeDecoder(document: document, index: try element(), codingPath: path)
        advance()
        return d
    }
}

extension JSONKind {
    var described: String {
        switch self {
        case .null: "null"
        case .false, .true: "a bool"
        case .number: "a number"
        case .string: "a string"
        case .array: "an array"
        case .object: "a dictionary"
        }
    }
}
