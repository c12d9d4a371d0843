import PetCore

extension TaskItem: Decodable, JSONWritable {
    enum Key {
        static var completedAt: StoredKey { StoredKey("completedAt") }
        static var completedSeq: StoredKey { StoredKey("completedSeq") }
        static var dayKey: StoredKey { StoredKey("dayKey") }
        static var id: StoredKey { StoredKey("id") }
        static var number: StoredKey { StoredKey("number") }
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
        let title = try c.decode(String.self, forKey: Key.title, checkedBy: TaskTitle.validate)
        let time = try c.decode(WallTime.self, forKey: Key.time)
        let dayKey = try c.decode(DayKey.self, forKey: Key.dayKey)
        let scheduled = try c.decodeInstant(forKey: Key.scheduled)
        let order = try c.decodeCount(UInt64.self, forKey: Key.order)
        // The id is the date of the day it was made for and the serial it was made from, its
        // order. The date is not required to be `dayKey`'s: a task added for the next day keeps
        // its id when a zone change gives that day another key (docs/DECISIONS.md).
        guard let parts = Bounds.taskID(id), parts.serial == order else {
            throw c.outOfBounds(Key.id, "\(quoted(id)) is not a task id YYYYMMDD-\(order)")
        }
        let completedAt = try c.decodeInstantIfPresent(forKey: Key.completedAt)
        let completedSeq = try c.decodeCount(UInt64.self, forKey: Key.completedSeq)
        let xp = try c.decodeCount(Int.self, forKey: Key.xp)
        let snoozedUntil = try c.decodeInstantIfPresent(forKey: Key.snoozedUntil)
        let templateID = try c.decodeIfPresent(String.self, forKey: Key.templateID)
        if let templateID, Bounds.templateID(templateID) == nil {
            throw c.outOfBounds(Key.templateID, "\(quoted(templateID)) is not a template id t-N")
        }
        let repeatRule = try c.decodeIfPresent(Repeat.self, forKey: Key.repeatRule)
        let number = try c.decode(Int.self, forKey: Key.number, within: 1...Bounds.count.upperBound, "a task number")
        self.init(
            id: id, title: title, time: time, dayKey: dayKey, scheduled: scheduled, order: order,
            templateID: templateID, repeatRule: repeatRule, number: number)
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
        json.field(Key.number, number)
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
