import PetCore

extension VisibleSnapshot: Decodable, JSONWritable {
    enum Key: String, CodingKey {
        case pet, tick
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: Key.self)
        self.init(tick: try c.decode(Int64.self, forKey: .tick), pet: try c.decode(PetState.self, forKey: .pet))
    }

    func write(to json: inout JSONWriter) {
        json.beginObject()
        json.field(Key.pet, pet)
        json.field(Key.tick, tick)
        json.endObject()
    }
}
