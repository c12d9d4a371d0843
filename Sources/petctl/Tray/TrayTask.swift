import DBusKit
import PetCore

/// A task as the tray shows it: its time and title, and whether it is due or overdue now.
struct TrayTask: Equatable {
    var id: String
    var time: String
    var title: String
    var due: Bool
    var overdue: Bool
    /// When it turns due and overdue (0 when never, or when the daemon does not say: petprogress(7) §6.2).
    var dueAt: Instant
    var overdueAt: Instant

    /// A task record, with the due keys read when the daemon sends them (older daemons do not).
    init(_ record: TaskRecord, raw: [String: DBusValue]?) {
        id = record.id
        time = record.effectiveTime
        title = record.title
        overdue = record.overdue
        due = raw?["due"]?.boolValue ?? record.overdue
        dueAt = raw?["due_at"]?.int64Value ?? 0
        overdueAt = raw?["overdue_at"]?.int64Value ?? 0
    }

    init(id: String, time: String, title: String, due: Bool = false, overdue: Bool = false) {
        self.id = id
        self.time = time
        self.title = title
        self.due = due
        self.overdue = overdue
        dueAt = 0
        overdueAt = 0
    }

    /// `14:30 Write report`, and `· overdue` or `· due` after it.
    var line: String {
        "\(LocalClock.wall(time)) \(title)" + (overdue ? " · " + tr("overdue") : due ? " · " + tr("due") : "")
    }

    /// The next instant after `now` at which this task's flags change; nil when none is ahead.
    func nextFlip(after now: Instant) -> Instant? {
        [dueAt, overdueAt].filter { $0 > now }.min()
    }
}
