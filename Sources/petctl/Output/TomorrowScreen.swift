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
    /// How the locale writes the rows' times.
    let clock: ClockStyle

    struct Row: Equatable {
        /// The task's id for a task added for tomorrow (which the interactive screen selects), else "".
        var id = ""
        let handle: String
        let time: String
        let title: String
        let note: String
    }

    /// The rows in time order (a task added for the day first on a tie, then a repeating one).
    var rows: [Row] {
        let all =
            added.map {
                Row(id: $0.id, handle: Handle.shown($0, tomorrow: true), time: $0.time, title: $0.title, note: "")
            }
            + repeating.map {
                Row(handle: Handle.template($0.id), time: $0.time, title: $0.title, note: tr("repeats %s", PetText.rule($0.repeatRule)))
            }
            + rolled.map {
                Row(handle: Handle.shown($0), time: $0.time, title: $0.title, note: tr("rolls over if not done"))
            }
        return all.indices.sorted { (all[$0].time, $0) < (all[$1].time, $1) }.map { all[$0] }
    }

    /// The screen. With `selected` (the interactive screen's), the rows have a two-column gutter,
    /// as today's do, whose `›` marks the row of the task with that id ("" for none), and the last
    /// lines say the keys instead of the commands.
    func render(width: Int, style: Style, selected: String? = nil) -> [String] {
        let gutter = selected == nil ? 0 : 2
        let rows = rows
        let count = rows.isEmpty ? tr("nothing planned") : trn("%d task", "%d tasks", rows.count)
        var lines = TextWidth.wrap(tr("Tomorrow, %s · %s", LocalClock.dayName(dayKey), count), width: width)
        if rest {
            lines += TextWidth.wrap(tr("Rest day: nothing is charged; repeating tasks skip it."), width: width)
                .map(style.cyan)
        }
        lines.append("")
        guard !rows.isEmpty else {
            lines += TextWidth.wrap(
                selected == nil ? tr("Add one: petctl add 09:30 Dentist --tomorrow") : tr("Add one: press a."),
                width: width)
            return lines
        }
        let handleWidth = rows.map { TextWidth.columns($0.handle) }.max() ?? 1
        for row in rows {
            let prefix = "\(TextWidth.padLeft(row.handle, to: handleWidth))  \(clock.column(row.time))  "
            let room = max(1, width - gutter - TextWidth.columns(prefix))
            let title = TextWidth.truncate(Titles.clean(row.title), to: room)
            let gap = room - TextWidth.columns(title) - TextWidth.columns(row.note)
            var rowLines: [String]
            if row.note.isEmpty {
                rowLines = [prefix + Titles.isolate(title)]
            } else if gap >= 2 {
                rowLines = [prefix + Titles.isolate(title) + String(repeating: " ", count: gap) + style.dim(row.note)]
            } else {
                let under = String(repeating: " ", count: TextWidth.columns(prefix))
                rowLines = [prefix + Titles.isolate(title), under + style.dim(TextWidth.truncate(row.note, to: room))]
            }
            if gutter > 0 {
                let mark = row.id == selected && !row.id.isEmpty ? style.bold("›") + " " : "  "
                rowLines = rowLines.enumerated().map { ($0.offset == 0 ? mark : "  ") + $0.element }
            }
            lines += rowLines
        }
        lines.append("")
        let hint =
            selected == nil
            ? tr("Change one by its handle: petctl edit HANDLE --time 09:30, petctl rm HANDLE.")
            : tr("↑ ↓ choose one of tomorrow's own tasks (+N); e edits it, x deletes it.")
        lines += TextWidth.wrap(hint, width: width).map(style.dim)
        return lines
    }
}
