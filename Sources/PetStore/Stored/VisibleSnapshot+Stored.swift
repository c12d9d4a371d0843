import PetCore

extension VisibleSnapshot: StoredObject {
    enum Key: String, CodingKey {
        case pet, tick
    }

    init(stored c: KeyedDecodingContainer<Key>) throws {
        self.init(tick: try c.decode(Int64.self, forKey: .tick), pet: try c.decode(.pet))
    }

    func write(to json: inout JSONWriter) {
        json.beginObject()
        json.field(Key.pet, pet)
        json.field(Key.tick, tick)
        json.endObject()
    }
}
