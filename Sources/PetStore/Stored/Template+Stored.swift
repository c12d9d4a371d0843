import PetCore

extension Template: Decodable, JSONWritable {
    enum Key {
        static var firstDay: StoredKey { StoredKey("firstDay") }
        static var id: StoredKey { StoredKey("id") }
        static var order: StoredKey { StoredKey("order") }
        static var repeatRule: StoredKey { StoredKey("repeatRule") }
        static var time: StoredKey { StoredKey("time") }
        static var title: StoredKey { StoredKey("title") }
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: StoredKey.self)
        let id = try c.decode(String.self, forKey: Key.id)
        let title = try c.decode(String.self, forKey: Key.title, checkedBy: TaskTitle.validate)
        let time = try c.decode(WallTime.self, forKey: Key.time)
        let repeatRule = try c.decode(Repeat.self, forKey: Key.repeatRule)
        let firstDay = try c.decode(DayKey.self, forKey: Key.firstDay)
        let order = try c.decodeCount(UInt64.self, forKey: Key.order)
        // The id is `t-` and the serial it was made from, its order.
        guard Bounds.templateID(id) == order else {
            throw c.outOfBounds(Key.id, "\(quoted(id)) is not a template id t-\(order)")
        }
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
