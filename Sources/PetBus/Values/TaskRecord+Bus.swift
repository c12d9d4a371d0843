import DBusKit
import PetCore

/// A task record (petprogress(7) §6.2): the elements of `ListTasks` and of an entry's `upcoming`.
extension TaskRecord {
    enum Key: String {
        case id, title, time
        case effectiveTime = "effective_time"
        case dayKey = "day_key"
        case done
        case completedAt = "completed_at"
        case completedSeq = "completed_seq"
        case snoozedUntil = "snoozed_until"
        case scheduledAt = "scheduled_at"
        case overdue
        case due
        case dueAt = "due_at"
        case overdueAt = "overdue_at"
        case isNext = "is_next"
        case xp
        case repeatRule = "repeat"
        case templateID = "template_id"
        case number
    }

    /// The record as an `a{sv}`.
    public var dbus: DBusValue { fields.value }

    /// Writes the record's `a{sv}` straight into a message body.
    public func encode(into body: inout BodyWriter) { fields.write(into: &body) }

    /// The record's fields, the one encoding of it.
    var fields: VardictWriter {
        var w = VardictWriter()
        w.add(Key.id, id)
        w.add(Key.title, title)
        w.add(Key.time, time)
        w.add(Key.effectiveTime, effectiveTime)
        w.add(Key.dayKey, dayKey)
        w.add(Key.done, done)
        w.add(Key.completedAt, int64: completedAt)
        w.add(Key.completedSeq, uint64: completedSeq)
        w.add(Key.snoozedUntil, int64: snoozedUntil)
        w.add(Key.scheduledAt, int64: scheduledAt)
        w.add(Key.overdue, overdue)
        w.add(Key.due, due)
        w.add(Key.dueAt, int64: dueAt)
        w.add(Key.overdueAt, int64: overdueAt)
        w.add(Key.isNext, isNext)
        w.add(Key.xp, int: xp)
        w.add(Key.repeatRule, repeatRule)
        w.add(Key.templateID, templateID)
        w.add(Key.number, int: number)
        return w
    }

    /// Decodes a record. `due`, `due_at` and `overdue_at` came later: a record from an older
    /// daemon reads as never due.
    public init(dbus value: DBusValue) throws(BusDecodingError) {
        let r = try VardictReader(value, "A task record")
        self.init(
            id: try r.string(Key.id), title: try r.string(Key.title), time: try r.string(Key.time),
            effectiveTime: try r.string(Key.effectiveTime), dayKey: try r.string(Key.dayKey),
            done: try r.bool(Key.done), completedAt: try r.int64(Key.completedAt),
            completedSeq: try r.uint64(Key.completedSeq), snoozedUntil: try r.int64(Key.snoozedUntil),
            scheduledAt: try r.int64(Key.scheduledAt, addedLater: 0),
            overdue: try r.bool(Key.overdue), isNext: try r.bool(Key.isNext), xp: try r.int(Key.xp),
            repeatRule: try r.string(Key.repeatRule), templateID: try r.string(Key.templateID),
            due: try r.bool(Key.due, absent: false), dueAt: try r.int64(Key.dueAt, addedLater: 0),
            overdueAt: try r.int64(Key.overdueAt, addedLater: 0))
        number = try r.int(Key.number, addedLater: 0)
    }
}

extension Array where Element == TaskRecord {
    /// The records as an `aa{sv}`.
    public var dbus: DBusValue { .array(elementSignature: "a{sv}", map(\.dbus)) }
}

extension TaskRecord: BusRecord {}
