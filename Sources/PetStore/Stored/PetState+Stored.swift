import PetCore

extension PetState: StoredObject {
    enum Key: String, CodingKey {
        case stageIndex, stageXP
    }

    init(stored c: KeyedDecodingContainer<Key>) throws {
        self.init(
            stageIndex: try c.decode(Int.self, forKey: .stageIndex), stageXP: try c.decode(Int.self, forKey: .stageXP))
    }

    func write(to json: inout JSONWriter) {
        json.beginObject()
        json.field(Key.stageIndex, stageIndex)
        json.field(Key.stageXP, stageXP)
        json.endObject()
    }
}
