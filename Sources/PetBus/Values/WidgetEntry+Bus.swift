import DBusKit
import PetCore

/// The widget entry (petprogress(7) §6.2): `GetWidgetEntry`, the `WidgetEntry` property, `EntryChanged`,
/// and each element of `GetTimeline`. The pet keys sit beside the entry's own.
extension WidgetEntry {
    enum Key: String {
        case date
        case nextDate = "next_date"
        case dayKey = "day_key"
        case tasksDone = "tasks_done"
        case tasksTotal = "tasks_total"
        case nextTaskID = "next_task_id"
        case nextTaskTitle = "next_task_title"
        case nextTaskTime = "next_task_time"
        case nextTaskOverdue = "next_task_overdue"
        case nextTaskDue = "next_task_due"
        case upcoming
        case restDay = "rest_day"
        case accessibleText = "accessible_text"
    }

    /// The entry as an `a{sv}`.
    public var dbus: DBusValue { fields.value }

    /// Writes the entry's `a{sv}` straight into a message body (the daemon's replies and signals).
    public func encode(into body: inout BodyWriter) { fields.write(into: &body) }

    /// The entry's fields, the pet keys among them: the one encoding of it.
    private var fields: VardictWriter {
        var w = VardictWriter()
        pet.write(into: &w)
        w.add(Key.date, int64: date)
        w.add(Key.nextDate, int64: nextDate)
        w.add(Key.dayKey, dayKey)
        w.add(Key.tasksDone, int: tasksDone)
        w.add(Key.tasksTotal, int: tasksTotal)
        w.add(Key.nextTaskID, nextTaskID)
        w.add(Key.nextTaskTitle, nextTaskTitle)
        w.add(Key.nextTaskTime, nextTaskTime)
        w.add(Key.nextTaskOverdue, nextTaskOverdue)
        w.add(Key.nextTaskDue, nextTaskDue)
        w.add(Key.upcoming, records: upcoming.map(\.fields))
        w.add(Key.restDay, restDay)
        w.add(Key.accessibleText, accessibleText)
        return w
    }

    /// Decodes an entry. `rest_day` came later, with rest days: an entry without it, from a daemon
    /// older than this client, reads as not a rest day; likewise `next_task_due` as not due.
    public init(dbus value: DBusValue) throws(BusDecodingError) {
        let r = try VardictReader(value, "The widget entry")
        var upcoming: [TaskRecord] = []
        for record in try r.records(Key.upcoming) { upcoming.append(try TaskRecord(dbus: record)) }
        self.init(
            date: try r.int64(Key.date), nextDate: try r.int64(Key.nextDate), dayKey: try r.string(Key.dayKey),
            pet: try PetView(reading: r), tasksDone: try r.int(Key.tasksDone), tasksTotal: try r.int(Key.tasksTotal),
            nextTaskID: try r.string(Key.nextTaskID), nextTaskTitle: try r.string(Key.nextTaskTitle),
            nextTaskTime: try r.string(Key.nextTaskTime), nextTaskOverdue: try r.bool(Key.nextTaskOverdue),
            upcoming: upcoming, restDay: try r.bool(Key.restDay, absent: false),
            accessibleText: try r.string(Key.accessibleText), nextTaskDue: try r.bool(Key.nextTaskDue, absent: false))
    }
}

extension WidgetEntry: BusRecord {}
