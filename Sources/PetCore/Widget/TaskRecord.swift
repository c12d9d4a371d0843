/// Task records (SPEC §6.2), as `ListTasks` and the entry's `upcoming` return them.
public enum TaskRecord {
    /// How a day's list is read: the open day (or a tick of the timeline) computes `is_next` and
    /// `overdue` at an instant; tomorrow's planned tasks and closed days have both false.
    public enum Reading: Hashable, Sendable {
        case live(at: Instant)
        case planned
        case closed
    }

    /// One record: `id`, `title`, `time`, `effective_time`, `day_key`, `done`, `completed_at`,
    /// `completed_seq`, `snoozed_until`, `overdue`, `is_next`, `xp`, `repeat`, `template_id`.
    public static func values(for task: TaskItem, isNext: Bool, overdue: Bool, zone: Zone) -> EntryDictionary {
        [
            "id": .string(task.id),
            "title": .string(task.title),
            "time": .string(task.time.description),
            "effective_time": .string(effectiveTime(of: task, zone: zone)),
            "day_key": .string(task.dayKey.description),
            "done": .bool(task.isDone),
            "completed_at": .int64(task.completedAt ?? 0),
            "completed_seq": .uint64(task.isDone ? task.completedSeq : 0),
            "snoozed_until": .int64(task.snoozedUntil ?? 0),
            "overdue": .bool(overdue),
            "is_next": .bool(isNext),
            "xp": .int(task.isDone ? task.xp : 0),
            "repeat": .string(task.repeatRule?.description ?? ""),
            "template_id": .string(task.templateID ?? ""),
        ]
    }

    /// A day's records in day order (effective instant, then creation order).
    public static func list(_ tasks: [TaskItem], reading: Reading, zone: Zone) -> [EntryDictionary] {
        let ordered = tasks.inDayOrder()
        guard case .live(let at) = reading else {
            return ordered.map { values(for: $0, isNext: false, overdue: false, zone: zone) }
        }
        let nextID = ordered.first { !$0.isDone }?.id
        return ordered.map { values(for: $0, isNext: $0.id == nextID, overdue: $0.isOverdue(at: at), zone: zone) }
    }

    /// The effective time as `HH:MM`: the snoozed-until wall time when snoozed, else the task's
    /// own time as the user gave it (not re-derived from the instant, so a gap or a zone change
    /// does not rewrite what the user typed).
    public static func effectiveTime(of task: TaskItem, zone: Zone) -> String {
        guard let until = task.snoozedUntil else { return task.time.description }
        return zone.wallTime(at: until).description
    }
}
