import PetCore

extension TaskItem: Decodable, JSONWritable {
    enum Key {
        static var completedAt: StoredKey { StoredKey("completedAt") }
        static var completedSeq: StoredKey { StoredKey("completedSeq") }
        static var dayKey: StoredKey { StoredKey("dayKey") }
        static var id: StoredKey { StoredKey("id") }
        static var order: StoredKey { StoredKey("order") }
        static var repeatRule: StoredKey { StoredKey("repeatRule") }
        static var scheduled: StoredKey { StoredKey("scheduled") }
        static var snoozedUntil: StoredKey { StoredKey("snoozedUntil") }
        static var templateID: StoredKey { StoredKey("templateID") }
        static var time: StoredKey { StoredKey("time") }
        static var title: StoredKey { StoredKey("title") }
        static var xp: StoredKey { StoredKey("xp") }
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: StoredKey.self)
        let id = try c.decode(String.self, forKey: Key.id)
        let title = try c.decode(String.self, forKey: Key.title)
        let time = try c.decode(WallTime.self, forKey: Key.time)
        let dayKey = try c.decode(DayKey.self, forKey: Key.dayKey)
        let scheduled = try c.decode(Int64.self, forKey: Key.scheduled)
        let order = try c.decode(UInt64.self, forKey: Key.order)
        let completedAt = try c.decodeIfPresent(Int64.self, forKey: Key.completedAt)
        let completedSeq = try c.decode(UInt64.self, forKey: Key.completedSeq)
        let xp = try c.decode(Int.self, forKey: Key.xp)
        let snoozedUntil = try c.decodeIfPresent(Int64.self, forKey: Key.snoozedUntil)
        let templateID = try c.decodeIfPresent(String.self, forKey: Key.templateID)
        let repeatRule = try c.decodeIfPresent(Repeat.self, forKey: Key.repeatRule)
        self.init(
            id: id, title: title, time: time, dayKey: dayKey, scheduled: scheduled, order: order,
            templateID: templateID, repeatRule: repeatRule)
        self.completedAt = completedAt
        self.completedSeq = completedSeq
        self.xp = xp
        self.snoozedUntil = snoozedUntil
    }

    func write(to json: inout JSONWriter) {
        json.beginObject()
        json.field(Key.completedAt, completedAt)
        json.field(Key.completedSeq, completedSeq)
        json.field(Key.dayKey, dayKey)
        json.field(Key.id, id)
        json.field(Key.order, order)
        json.field(Key.repeatRule, repeatRule)
        json.field(Key.scheduled, scheduled)
        json.field(Key.snoozedUntil, snoozedUntil)
        json.field(Key.templateID, templateID)
        json.field(Key.time, time)
        json.field(Key.title, title)
        json.field(Key.xp, xp)
        json.endObject()
    }
}
