import PetCore

extension PetState: Decodable, JSONWritable {
    enum Key {
        static var stageIndex: StoredKey { StoredKey("stageIndex") }
        static var stageXP: StoredKey { StoredKey("stageXP") }
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: StoredKey.self)
        self.init(
            stageIndex: try c.decodeCount(Int.self, forKey: Key.stageIndex),
            stageXP: try c.decodeCount(Int.self, forKey: Key.stageXP))
    }

    func write(to json: inout JSONWriter) {
        json.beginObject()
        json.field(Key.stageIndex, stageIndex)
        json.field(Key.stageXP, stageXP)
        json.endObject()
    }
}
