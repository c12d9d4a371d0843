import PetCore

extension VisibleSnapshot: Decodable, JSONWritable {
    enum Key {
        static var pet: StoredKey { StoredKey("pet") }
        static var tick: StoredKey { StoredKey("tick") }
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: StoredKey.self)
        self.init(tick: try c.decodeInstant(forKey: Key.tick), pet: try c.decode(PetState.self, forKey: Key.pet))
    }

    func write(to json: inout JSONWriter) {
        json.beginObject()
        json.field(Key.pet, pet)
        json.field(Key.tick, tick)
        json.endObject()
    }
}
