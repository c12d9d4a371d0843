import PetBus
import PetCore

/// Everything `petctl export` takes away (petprogress(7) §7): all of history, the open day and tomorrow,
/// templates, settings, rest days and the pet — and its two forms.
struct ExportDocument {
    let status: ServiceStatus
    let settings: Settings
    let pet: PetView
    let restDays: [String]
    let templates: [TemplateRecord]
    let today: [TaskRecord]
    let todayIsRest: Bool
    let tomorrow: [TaskRecord]
    let history: [HistoryRecord]
    /// What a restore reads (`ExportStore`): the daemon's state and history in the store's own
    /// keys, JSON text written as it is. The members above are for reading; `Import` ignores them.
    let store: String

    /// The version of the JSON document's shape; readers check it.
    static let schema = PetBus.exportSchema

    /// One JSON document (RFC 8259). The records use the D-Bus contract's keys (petprogress(7) §6.1,
    /// §6.2), instants are Unix seconds; one history record a line, so the file diffs well.
    var json: String {
        let s = settings
        let fields: [(String, String)] = [
            ("format", Escaping.json(PetBus.exportFormat)),
            ("schema", "\(Self.schema)"),
            ("exported_at", "\(status.now)"),
            ("daemon_version", Escaping.json(status.version)),
            ("open_day", Escaping.json(status.openDay)),
            ("last_closed_day", Escaping.json(status.lastClosedDay)),
            (
                "settings",
                "{\"reset_time\":\(Escaping.json(s.resetTime.description)),\"grace_minutes\":\(s.graceMinutes),"
                    + "\"snooze_minutes\":\(s.snoozeMinutes),\"rollover\":\(s.rollover)}"
            ),
            ("pet", EntryJSON.json(pet.dbus)),
            ("rest_days", "[" + restDays.map(Escaping.json).joined(separator: ",") + "]"),
            ("templates", EntryJSON.json(templates.dbus)),
            (
                "today",
                "{\"day_key\":\(Escaping.json(status.openDay)),\"rest\":\(todayIsRest),"
                    + "\"tasks\":\(EntryJSON.json(today.dbus))}"
            ),
            ("tomorrow", "{\"tasks\":\(EntryJSON.json(tomorrow.dbus))}"),
            (
                "history",
                history.isEmpty
                    ? "[]" : "[\n    " + history.map { EntryJSON.json($0.dbus) }.joined(separator: ",\n    ") + "\n  ]"
            ),
            ("store", store),
        ]
        return "{\n" + fields.map { "  \(Escaping.json($0.0)): \($0.1)" }.joined(separator: ",\n") + "\n}\n"
    }

    static let csvColumns = [
        "day_key", "day_rest", "day_xp_change", "day_daily_xp", "task_id", "title", "time", "effective_time", "done",
        "outcome", "xp", "completed_at", "snoozed_until", "repeat", "template_id",
    ]

    /// One row per task of every archived day (RFC 4180: CRLF line ends, fields quoted when they
    /// hold a comma, a quote or a line end). `outcome` is `on_time`, `early`, `late`, `missed` or, on a
    /// day not judged, `not_done_rest`, `not_done_away` or `not_done_return` (never `missed`); instants are local ISO 8601 with their offset, empty when unset.
    var csv: String {
        var rows = [Self.csvColumns.joined(separator: ",")]
        for day in history {
            for task in day.tasks {
                let outcome =
                    task.done
                    ? (task.xp >= 2 ? "on_time" : task.judgement)
                    : day.away
                        ? "not_done_away" : day.returned ? "not_done_return" : day.rest ? "not_done_rest" : "missed"
                let fields = [
                    day.dayKey, "\(day.rest)", "\(day.xpChange)", "\(day.dailyXP)", task.id, Self.textCell(task.title),
                    task.time,
                    task.effectiveTime, "\(task.done)", outcome, "\(task.xp)",
                    task.completedAt == 0 ? "" : LocalClock.iso(task.completedAt),
                    task.snoozedUntil == 0 ? "" : LocalClock.iso(task.snoozedUntil), task.repeatRule, task.templateID,
                ]
                rows.append(fields.map(Self.csvField).joined(separator: ","))
            }
        }
        return rows.joined(separator: "\r\n") + "\r\n"
    }

    /// A title as a spreadsheet cell that is text, never a formula (OWASP, "CSV Injection"): one
    /// beginning with `=`, `+`, `-`, `@`, a tab or a CR gets a leading `'`. The other columns are
    /// petctl's own values (a negative XP stays a number).
    static func textCell(_ text: String) -> String {
        guard let first = text.unicodeScalars.first, "=+-@\t\r".unicodeScalars.contains(first) else { return text }
        return "'" + text
    }

    /// RFC 4180 quoting.
    static func csvField(_ text: String) -> String {
        guard text.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" || $0 == "\r\n" }) else {
            return text
        }
        var quoted = "\""
        for ch in text { quoted += ch == "\"" ? "\"\"" : String(ch) }
        return quoted + "\""
    }
}
