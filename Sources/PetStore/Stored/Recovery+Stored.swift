import PetCore

/// `recovery.json`: `{"acknowledged":false,"at":…,"day":"2026-03-04","schema":1,"source":"snapshot"}`.
extension Recovery: Decodable, JSONWritable {
    static let schema = 1

    enum Key {
        static var acknowledged: StoredKey { StoredKey("acknowledged") }
        static var at: StoredKey { StoredKey("at") }
        static var day: StoredKey { StoredKey("day") }
        static var schema: StoredKey { StoredKey("schema") }
        static var source: StoredKey { StoredKey("source") }
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: StoredKey.self)
        let schema = try c.decode(Int.self, forKey: Key.schema)
        guard schema == Self.schema else {
            throw DecodingError.dataCorruptedError(
                forKey: Key.schema, in: c, debugDescription: "schema \(schema) is not \(Self.schema)")
        }
        let name = try c.decode(String.self, forKey: Key.source)
        guard let source = Source(rawValue: name) else {
            throw DecodingError.dataCorruptedError(forKey: Key.source, in: c, debugDescription: "unknown source")
        }
        self.init(
            source: source, day: try c.decodeIfPresent(DayKey.self, forKey: Key.day),
            at: try c.decode(Instant.self, forKey: Key.at),
            acknowledged: try c.decode(Bool.self, forKey: Key.acknowledged))
    }

    func write(to json: inout JSONWriter) {
        json.beginObject()
        json.field(Key.acknowledged, acknowledged)
        json.field(Key.at, at)
        json.field(Key.day, day)
        json.field(Key.schema, Self.schema)
        json.field(Key.source, source.rawValue)
        json.endObject()
        json.newline()
    }
}
