import PetCore

extension Template: StoredObject {
    enum Key: String, CodingKey {
        case firstDay, id, order, repeatRule, time, title
    }

    init(stored c: KeyedDecodingContainer<Key>) throws {
        let id = try c.decode(String.self, forKey: .id)
        let title = try c.decode(String.self, forKey: .title)
        let time: WallTime = try c.decode(.time)
        let repeatRule: Repeat = try c.decode(.repeatRule)
        let firstDay: DayKey = try c.decode(.firstDay)
        let order = try c.decode(UInt64.self, forKey: .order)
        self.init(id: id, title: title, time: time, repeatRule: repeatRule, firstDay: firstDay, order: order)
    }

    func write(to json: inout JSONWriter) {
        json.beginObject()
        json.field(Key.firstDay, firstDay)
        json.field(Key.id, id)
        json.field(Key.order, order)
        json.field(Key.repeatRule, repeatRule)
        json.field(Key.time, time)
        json.field(Key.title, title)
        json.endObject()
    }
}
