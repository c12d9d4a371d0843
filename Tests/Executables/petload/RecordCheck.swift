import DBusKit

/// Compares the daemon's task records (petprogress(7) §6.2) with a client's model.
enum RecordCheck {
    /// Whether `record` is one of the tasks of the client whose titles start with `prefix`.
    static func owned(_ record: [String: DBusValue], _ prefix: String) -> Bool {
        record["title"]?.stringValue?.hasPrefix(prefix) == true
    }

    /// The first difference between the client's `records` and `model`, or nil when they agree.
    static func problem(_ records: [[String: DBusValue]], _ model: Model, _ frame: DayFrame) -> String? {
        guard records.count == model.tasks.count else {
            let got = records.compactMap { $0["title"]?.stringValue }.sorted()
            return
                "expected \(model.tasks.count) tasks \(model.tasks.map(\.title).sorted()), the daemon has \(records.count) \(got)"
        }
        var byID: [String: [String: DBusValue]] = [:]
        for record in records {
            guard let id = record["id"]?.stringValue, byID.updateValue(record, forKey: id) == nil else {
                return "a task id appears twice: \(record)"
            }
        }
        for task in model.tasks {
            guard let record = byID[task.id] else { return "task \(task.id) \(task.title) is missing" }
            if let difference = difference(record, task, frame) { return "task \(task.id): \(difference)" }
        }
        return nil
    }

    /// The first field of `record` that is not what `task` predicts.
    static func difference(_ record: [String: DBusValue], _ task: ModelTask, _ frame: DayFrame) -> String? {
        let completedAt = record["completed_at"]?.int64Value ?? -1
        let completedSeq = record["completed_seq"]?.uint64Value ?? 0
        let expected: [(String, DBusValue?, DBusValue)] = [
            ("title", record["title"], .string(task.title)),
            ("time", record["time"], .string(task.time)),
            ("effective_time", record["effective_time"], .string(frame.wallTime(task.effective(frame)))),
            ("day_key", record["day_key"], .string(frame.key)),
            ("done", record["done"], .bool(task.done)),
            ("xp", record["xp"], .int32(Int32(task.xp))),
            ("snoozed_until", record["snoozed_until"], .int64(task.snoozedUntil)),
            ("overdue", record["overdue"], .bool(false)),
            ("repeat", record["repeat"], .string("")),
            ("template_id", record["template_id"], .string("")),
            ("completed_at set", .bool(completedAt > 0), .bool(task.done)),
            ("completed_seq set", .bool(completedSeq > 0), .bool(task.done)),
        ]
        for (key, got, want) in expected where got != want {
            return "\(key) is \(got.map { "\($0)" } ?? "missing"), expected \(want)"
        }
        return nil
    }
}

/// The widget entry of the run: the day never ends and no tick passes, so its pet part is the
/// snapshot of the day's first tick, taken from the fresh store's pet (Tadpole, 0 XP).
enum EntryCheck {
    static func problem(_ entry: [String: DBusValue], _ frame: DayFrame) -> String? {
        let expected: [(String, DBusValue)] = [
            ("day_key", .string(frame.key)), ("date", .int64(frame.start)), ("next_date", .int64(frame.start + 3600)),
            ("stage_index", .int32(0)), ("stage_count", .int32(20)), ("stage_name", .string("Tadpole")),
            ("stage_xp", .int32(0)), ("threshold", .int32(10)), ("is_final", .bool(false)),
        ]
        for (key, want) in expected where entry[key] != want {
            return "entry \(key) is \(entry[key].map { "\($0)" } ?? "missing"), expected \(want)"
        }
        return nil
    }
}
