import PetCore

/// A value the store keeps in its files, read through `JSONDecoder` by its own rule (PetCore's
/// types are not `Decodable`: their property names do not decide what a file holds).
protocol StoredValue: JSONWritable {
    init(storedFrom decoder: any Decoder) throws
}

/// A value the store keeps as a JSON object: its `Key` spells every key once, for reading
/// (`init(stored:)`) and for writing (`write(to:)`), so renaming a PetCore property cannot change
/// or drop a key. Keys are written sorted by their UTF-8 bytes (the order `JSONEncoder` wrote),
/// optionals only when present; reading requires every key but the optionals' and ignores keys
/// it does not know, as synthesized `Decodable` did.
protocol StoredObject: StoredValue {
    associatedtype Key: CodingKey
    init(stored: KeyedDecodingContainer<Key>) throws
}

extension StoredObject {
    init(storedFrom decoder: any Decoder) throws { try self.init(stored: decoder.container(keyedBy: Key.self)) }
}

/// A stored value's `Decodable` face, for `JSONDecoder`.
struct Stored<Value: StoredValue>: Decodable {
    let value: Value
    init(from decoder: any Decoder) throws { value = try Value(storedFrom: decoder) }
}

extension KeyedDecodingContainer {
    func decode<T: StoredValue>(_ key: Key) throws -> T { try decode(Stored<T>.self, forKey: key).value }

    func decodeIfPresent<T: StoredValue>(_ key: Key) throws -> T? {
        try decodeIfPresent(Stored<T>.self, forKey: key)?.value
    }

    func decode<T: StoredValue>(_ key: Key) throws -> [T] { try decode([Stored<T>].self, forKey: key).map(\.value) }
}

extension JSONWriter {
    /// One member of an object: its key, then its value.
    mutating func field(_ key: some CodingKey, _ value: some JSONWritable) {
        self.key(unescaped: key.stringValue)
        value.write(to: &self)
    }

    /// A member written only when it has a value.
    mutating func field(_ key: some CodingKey, _ value: (some JSONWritable)?) {
        if let value { field(key, value) }
    }
}
