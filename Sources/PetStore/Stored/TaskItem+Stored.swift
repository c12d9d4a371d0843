import PetCore

extension TaskItem: Decodable, JSONWritable {
    enum Key: String, CodingKey {
        case completedAt, completedSeq, dayKey, id, order, repeatRule, scheduled, snoozedUntil, templateID, time, title
        case xp
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: Key.self)
        let id = try c.decode(String.self, forKey: .id)
        let title = try c.decode(String.self, forKey: .title)
        let time = try c.decode(WallTime.self, forKey: .time)
        let dayKey = try c.decode(DayKey.self, forKey: .dayKey)
        let scheduled = try c.decode(Int64.self, forKey: .scheduled)
        let order = try c.decode(UInt64.self, forKey: .order)
        let completedAt = try c.decodeIfPresent(Int64.self, forKey: .completedAt)
        let completedSeq = try c.decode(UInt64.self, forKey: .completedSeq)
        let xp = try c.decode(Int.self, forKey: .xp)
        let snoozedUntil = try c.decodeIfPresent(Int64.self, forKey: .snoozedUntil)
        let templateID = try c.decodeIfPresent(String.self, forKey: .templateID)
        let repeatRule = try c.decodeIfPresent(Repeat.self, forKey: .repeatRule)
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
