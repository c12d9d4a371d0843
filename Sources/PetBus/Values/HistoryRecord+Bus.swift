import DBusKit
import PetCore

/// An archived day (petprogress(7) §6.1): the elements of `GetHistory`'s `days`.
extension HistoryRecord {
    enum Key: String {
        case dayKey = "day_key"
        case start, end
        case tasksDone = "tasks_done"
        case tasksTotal = "tasks_total"
        case rate, rest, away
        case returned = "return"
        case xpChange = "xp_change"
        case dailyXP = "daily_xp"
        case stageIndexOpen = "stage_index_open"
        case stageXPOpen = "stage_xp_open"
        case stageIndexClose = "stage_index_close"
        case stageXPClose = "stage_xp_close"
        case stageNameClose = "stage_name_close"
        case tasks
    }

    /// The record as an `a{sv}`.
    public var dbus: DBusValue { fields.value }

    /// Writes the record's `a{sv}` straight into a message body.
    public func encode(into body: inout BodyWriter) { fields.write(into: &body) }

    /// The record's fields, the one encoding of it.
    private var fields: VardictWriter {
        var w = VardictWriter()
        w.add(Key.dayKey, dayKey)
        w.add(Key.start, int64: start)
        w.add(Key.end, int64: end)
        w.add(Key.tasksDone, int: tasksDone)
        w.add(Key.tasksTotal, int: tasksTotal)
        w.add(Key.rate, double: rate)
        w.add(Key.rest, rest)
        w.add(Key.away, away)
        w.add(Key.returned, returned)
        w.add(Key.xpChange, int: xpChange)
        w.add(Key.dailyXP, int: dailyXP)
        w.add(Key.stageIndexOpen, int: stageIndexOpen)
        w.add(Key.stageXPOpen, int: stageXPOpen)
        w.add(Key.stageIndexClose, int: stageIndexClose)
        w.add(Key.stageXPClose, int: stageXPClose)
        w.add(Key.stageNameClose, stageNameClose)
        w.add(Key.tasks, records: tasks.map(\.fields))
        return w
    }

    /// Decodes a record.
    public init(dbus value: DBusValue) throws(BusDecodingError) {
        let r = try VardictReader(value, "A history record")
        var tasks: [TaskRecord] = []
        for task in try r.records(Key.tasks) { tasks.append(try TaskRecord(dbus: task)) }
        self.init(
            dayKey: try r.string(Key.dayKey), start: try r.int64(Key.start), end: try r.int64(Key.end),
            tasksDone: try r.int(Key.tasksDone), tasksTotal: try r.int(Key.tasksTotal), rate: try r.double(Key.rate),
            rest: try r.bool(Key.rest), xpChange: try r.int(Key.xpChange), dailyXP: try r.int(Key.dailyXP),
            stageIndexOpen: try r.int(Key.stageIndexOpen), stageXPOpen: try r.int(Key.stageXPOpen),
            stageIndexClose: try r.int(Key.stageIndexClose), stageXPClose: try r.int(Key.stageXPClose),
            stageNameClose: try r.string(Key.stageNameClose), tasks: tasks, away: try r.bool(Key.away),
            returned: try r.bool(Key.returned))
    }
}

extension HistoryRecord: BusRecord {}
