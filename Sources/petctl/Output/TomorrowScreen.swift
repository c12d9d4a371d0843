import PetCore

/// `petctl tomorrow` (petprogress(7) §7): the next day as known now — the tasks added for it, the
/// repeating tasks it will get when it opens, the copies rollover would bring, and whether it is a
/// rest day — each under the handle that reaches it: `+N` for a task added for it, `rN` for a
/// repeating task (its template), today's number for a task that would roll over.
struct TomorrowScreen {
    let dayKey: String
    let rest: Bool
    /// `ListTasks("tomorrow")`, in day order.
    let added: [TaskRecord]
    /// The templates whose rule matches the day (none when it is a rest day), by creation order.
    let repeating: [TemplateRecord]
    /// Today's undone one-offs when rollover is on, in day order.
    let rolled: [TaskRecord]

    struct Row: Equatable {
        let handle: String
        let time: String
        let title: String
        let note: String
    }

    /// The rows in time order (a task added for the day first on a tie, then a repeating one).
    var rows: [Row] {
        let all =
            added.map { Row(handle: Handle.shown($0, tomorrow: true), time: $0.time, title: $0.title, note: "") }
            + repeating.map {
                Row(handle: Handle.template($0.id), time: $0.time, title: $0.title, note: tr("repeats %s", PetText.rule($0.repeatRule)))
            }
            + rolled.map {
                Row(handle: Handle.shown($0), time: $0.time, title: $0.title, note: tr("rolls over if not done"))
            }
        return all.indices.sorted { (all[$0].time, $0) < (all[$1].time, $1) }.map { all[$0] }
    }

    func render(width: Int, style: Style) -> [String] {
        let rows = rows
        let count = rows.isEmpty ? tr("nothing planned") : trn("%d task", "%d tasks", rows.count)
        var lines = TextWidth.wrap(tr("Tomorrow, %s · %s", LocalClock.dayName(dayKey), count), width: width)
        if rest {
            lines += TextWidth.wrap(tr("Rest day: nothing is charged; repeating tasks skip it."), width: width)
                .map(style.cyan)
        }
        lines.append("")
        guard !rows.isEmpty else {
            lines += TextWidth.wrap(tr("Add one: petctl add 09:30 Dentist --tomorrow"), width: width)
            return lines
        }
        let handleWidth = rows.map { TextWidth.columns($0.handle) }.max() ?? 1
        for row in rows {
            let prefix = "\(TextWidth.padLeft(row.handle, to: handleWidth))  \(LocalClock.column(row.time))  "
            let room = max(1, width - TextWidth.columns(prefix))
            let title = TextWidth.truncate(Titles.clean(row.title), to: room)
            let gap = room - TextWidth.columns(title) - TextWidth.columns(row.note)
            if row.note.isEmpty {
                lines.append(prefix + Titles.isolate(title))
            } else if gap >= 2 {
                lines.append(prefix + Titles.isolate(title) + String(repeating: " ", count: gap) + style.dim(row.note))
            } else {
                let under = String(repeating: " ", count: TextWidth.columns(prefix))
                lines += [prefix + Titles.isolate(title), under + style.dim(TextWidth.truncate(row.note, to: room))]
            }
        }
        lines.append("")
        lines += TextWidth.wrap(
            tr("Change one by its handle: petctl edit HANDLE --time 09:30, petctl rm HANDLE."), width: width
        )
        .map(style.dim)
        return lines
    }
}
