import PetCore

// Each type the store keeps has one file here, holding its `Key` (every key it is stored under,
// spelled once), its `write(to:)` and its `init(from:)`, both through those keys: renaming a
// PetCore property cannot change or drop a key. Keys are written sorted by their UTF-8 bytes
// (the order `JSONEncoder` wrote), optionals only when present; reading requires every key but
// the optionals' and ignores keys it does not know, as the synthesized `Decodable` did.
// PetCore's types are not `Decodable` themselves: only the store decides what its files hold.

/// One key of the store's files, spelled once: written from its literal's bytes, looked up by its
/// text. (A `String` made at every write cost a tenth to a quarter of the state's encoding.)
struct StoredKey: CodingKey, Sendable {
    let name: StaticString

    init(_ name: StaticString) { self.name = name }

    var stringValue: String { name.description }

    /// Only the store's own keys exist: the keys a file holds are never listed.
    init?(stringValue: String) { nil }
    var intValue: Int? { nil }
    init?(intValue: Int) { nil }
}

extension JSONWriter {
    /// One member of an object: its key, then its value.
    mutating func field(_ key: StoredKey, _ value: some JSONWritable) {
        self.key(key.name)
        value.write(to: &self)
    }

    /// A member written only when it has a value.
    mutating func field(_ key: StoredKey, _ value: (some JSONWritable)?) {
        if let value { field(key, value) }
    }
}
