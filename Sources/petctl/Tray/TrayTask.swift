import DBusKit
import PetCore

/// A task as the tray shows it: its time and title, and whether it is due or overdue now.
struct TrayTask: Equatable {
    var id: String
    var time: String
    var title: String
    var due: Bool
    var overdue: Bool

    /// A task record as PetBus decoded it (from an older daemon without the due keys: due only
    /// when overdue, and no instants).
    init(_ record: TaskRecord) {
        id = record.id
        time = record.effectiveTime
        title = record.title
        overdue = record.overdue
        due = record.due || record.overdue
    }

    init(id: String, time: String, title: String, due: Bool = false, overdue: Bool = false) {
        self.id = id
        self.time = time
        self.title = title
        self.due = due
        self.overdue = overdue
    }

    /// `14:30 Write report` (the time on `clock`), and `· overdue` or `· due` after it.
    func line(_ clock: ClockStyle) -> String {
        "\(clock.wall(time)) \(title)" + (overdue ? " · " + tr("overdue") : due ? " · " + tr("due") : "")
    }
}
