import PetCore

extension Day: StoredObject {
    enum Key: String, CodingKey {
        case end, key, start
    }

    init(stored c: KeyedDecodingContainer<Key>) throws {
        self.init(
            key: try c.decode(.key), start: try c.decode(Int64.self, forKey: .start),
            end: try c.decode(Int64.self, forKey: .end))
    }

    func write(to json: inout JSONWriter) {
        json.beginObject()
        json.field(Key.end, end)
        json.field(Key.key, key)
        json.field(Key.start, start)
        json.endObject()
    }
}
