import PetCore

extension Day: Decodable, JSONWritable {
    enum Key {
        static var end: StoredKey { StoredKey("end") }
        static var key: StoredKey { StoredKey("key") }
        static var start: StoredKey { StoredKey("start") }
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: StoredKey.self)
        self.init(
            key: try c.decode(DayKey.self, forKey: Key.key), start: try c.decode(Int64.self, forKey: Key.start),
            end: try c.decode(Int64.self, forKey: Key.end))
    }

    func write(to json: inout JSONWriter) {
        json.beginObject()
        json.field(Key.end, end)
        json.field(Key.key, key)
        json.field(Key.start, start)
        json.endObject()
    }
}
