import PetCore

extension Template: Decodable, JSONWritable {
    enum Key: String, CodingKey {
        case firstDay, id, order, repeatRule, time, title
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: Key.self)
        let id = try c.decode(String.self, forKey: .id)
        let title = try c.decode(String.self, forKey: .title)
        let time = try c.decode(WallTime.self, forKey: .time)
        let repeatRule = try c.decode(Repeat.self, forKey: .repeatRule)
        let firstDay = try c.decode(DayKey.self, forKey: .firstDay)
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
