import PetCore

extension Day: Decodable, JSONWritable {
    enum Key: String, CodingKey {
        case end, key, start
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: Key.self)
        self.init(
            key: try c.decode(DayKey.self, forKey: .key), start: try c.decode(Int64.self, forKey: .start),
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
