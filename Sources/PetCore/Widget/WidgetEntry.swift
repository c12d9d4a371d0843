/// The widget entry (SPEC §6.2): every key, built from a pet (the visible snapshot, or the live
/// pet for a timeline entry) and one day's tasks read at an instant.
public enum WidgetEntry {
    /// The entry's keys. `date` and `nextDate` are ticks; `tasks` are the day's tasks with
    /// `dayKey`, read live at `at` (`next` is the first not-done task in day order, `overdue`
    /// relative to `at`).
    public static func values(
        date: Instant, nextDate: Instant, pet: PetState, dayKey: DayKey, tasks: [TaskItem],
        at: Instant, zone: Zone, stages: StageTable, iconPath: (Stage) -> String
    ) -> EntryDictionary {
        let ordered = tasks.inDayOrder()
        let pending = ordered.filter { !$0.isDone }
        let done = ordered.count - pending.count
        let next = pending.first
        let upcoming = pending.prefix(3).map {
            TaskRecord.values(for: $0, isNext: $0.id == next?.id, overdue: $0.isOverdue(at: at), zone: zone)
        }
        let nextTime = next.map { TaskRecord.effectiveTime(of: $0, zone: zone) } ?? ""
        let nextOverdue = next?.isOverdue(at: at) ?? false
        let spoken = next.map { AccessibleText.Next(time: nextTime, title: $0.title, overdue: nextOverdue) }

        var entry = PetKeys.values(for: pet, stages: stages, iconPath: iconPath)
        entry["date"] = .int64(date)
        entry["next_date"] = .int64(nextDate)
        entry["day_key"] = .string(dayKey.description)
        entry["tasks_done"] = .int(done)
        entry["tasks_total"] = .int(ordered.count)
        entry["next_task_id"] = .string(next?.id ?? "")
        entry["next_task_title"] = .string(next?.title ?? "")
        entry["next_task_time"] = .string(nextTime)
        entry["next_task_overdue"] = .bool(nextOverdue)
        entry["upcoming"] = .records(upcoming)
        entry["accessible_text"] = .string(
            AccessibleText.sentence(pet: pet, stages: stages, done: done, total: ordered.count, next: spoken))
        return entry
    }

    /// Every key an entry carries, with its D-Bus type (SPEC §6.2), for tests and documentation.
    public static let keyTypes: [String: String] = [
        "date": "x", "next_date": "x", "day_key": "s", "stage_index": "i", "stage_count": "i",
        "stage_name": "s", "stage_xp": "i", "threshold": "i", "progress": "d", "is_final": "b",
        "icon_name": "s", "icon_path": "s", "glyph": "s", "tasks_done": "i", "tasks_total": "i",
        "next_task_id": "s", "next_task_title": "s", "next_task_time": "s", "next_task_overdue": "b",
        "upcoming": "aa{sv}", "accessible_text": "s",
    ]

    /// Every key a task record carries, with its D-Bus type (SPEC §6.2).
    public static let taskRecordKeyTypes: [String: String] = [
        "id": "s", "title": "s", "time": "s", "effective_time": "s", "day_key": "s", "done": "b",
        "completed_at": "x", "completed_seq": "t", "snoozed_until": "x", "overdue": "b", "is_next": "b",
        "xp": "i", "repeat": "s", "template_id": "s",
    ]
}
