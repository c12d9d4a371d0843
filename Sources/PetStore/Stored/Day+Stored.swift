import PetCore

extension Day: Decodable, JSONWritable {
    enum Key {
        static var end: StoredKey { StoredKey("end") }
        static var key: StoredKey { StoredKey("key") }
        static var start: StoredKey { StoredKey("start") }
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: StoredKey.self)
        let start = try c.decodeInstant(forKey: Key.start)
        let end = try c.decodeInstant(forKey: Key.end)
        guard end > start else { throw c.outOfBounds(Key.end, "the day ends (\(end)) before its start (\(start))") }
        self.init(key: try c.decode(DayKey.self, forKey: Key.key), start: start, end: end)
    }

    func write(to json: inout JSONWriter) {
        json.beginObject()
        json.field(Key.end, end)
        json.field(Key.key, key)
        json.field(Key.start, start)
        json.endObject()
    }
}
