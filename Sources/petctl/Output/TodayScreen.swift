import PetCore

/// The Today screen (petprogress(7) §7): the live pet with its progress, what the panel shows
/// until the next hour when that differs, the day's count, and its tasks in day order.
struct TodayScreen {
    /// The live pet (`GetPet`).
    let live: PetView
    /// The panel's entry (`GetWidgetEntry`): its pet part is the hourly snapshot.
    let entry: WidgetEntry
    /// The open day's tasks in day order (`ListTasks("")`).
    let tasks: [TaskRecord]
    /// The recovery notice (`GetStatus`), shown until it is acknowledged: whole in `--plain`, and
    /// on the screen as `noticeLine`, short enough for one line of 80 columns with its hint.
    var notice: String? = nil
    var noticeLine: String? = nil
    /// What the closeouts since the screen was last shown did to the pet's form (said once).
    var formChange: String? = nil

    /// How the notice ends: what hides it.
    static let acknowledgeHint = "Hide this: petctl status --ack"

    /// Whether the panel's hourly picture differs from the live pet.
    var panelLags: Bool { entry.pet.stageIndex != live.stageIndex || entry.pet.stageXP != live.stageXP }

    var done: Int { tasks.filter(\.done).count }

    // MARK: the screen

    func render(width: Int, style: Style) -> [String] {
        var lines = header(width: width, style: style)
        if tasks.isEmpty {
            lines.append("Add one: petctl add 14:30 \"Write report\"")
            return lines
        }
        lines += taskRows(width: width, style: style).flatMap { $0 }
        if tasks.allSatisfy(\.done) { lines += ["", "All done. Nothing pending."] }
        return lines
    }

    /// Everything above the tasks: the notice, the pet, the panel's line, the day's count and a blank.
    func header(width: Int, style: Style) -> [String] {
        var lines: [String] = []
        if let notice {
            // One line, whatever the width: the whole sentence is in `petctl status`.
            let line = "⚠ \(noticeLine ?? notice) · petctl status --ack"
            lines.append(style.yellow(TextWidth.truncate(line, to: max(1, width))))
        }
        lines += [
            "\(live.glyph) \(style.bold(Titles.quoted(live.stageName))) · stage \(live.stageIndex + 1) of \(live.stageCount)"
                + (live.isFinal ? " · final form" : ""),
            progressLine(width: width, style: style),
        ]
        if let formChange { lines += TextWidth.wrap(formChange, width: width).map(style.bold) }
        if entry.restDay {
            lines += TextWidth.wrap("Rest day: nothing is charged today; done tasks still count.", width: width)
                .map(style.cyan)
        }
        if panelLags {
            let note =
                "The panel shows \(entry.pet.glyph) \(Titles.quoted(entry.pet.stageName)) \(xpText(entry.pet)) until "
                + "\(LocalClock.time(entry.nextDate)); it changes on the hour."
            lines += TextWidth.wrap(note, width: width).map(style.dim)
        }
        let count = tasks.isEmpty ? "no tasks yet" : "\(done) of \(tasks.count) done"
        lines.append("\(LocalClock.dayName(entry.dayKey)) · \(count)")
        lines.append("")
        return lines
    }

    /// Each task's lines, in day order, the handles padded to one width.
    func taskRows(width: Int, style: Style) -> [[String]] {
        let handleWidth = tasks.map { TextWidth.columns(Handle.shown($0)) }.max() ?? 1
        return tasks.map { rows($0, handleWidth: handleWidth, width: width, style: style) }
    }

    /// `██████░░░░  12/30 XP`, or a full bar and `7 XP` at the final stage.
    func progressLine(width: Int, style: Style) -> String {
        let text = xpText(live)
        let cells = max(8, min(30, width - TextWidth.columns(text) - 2))
        let filled = live.isFinal ? cells : Int((live.progress * Double(cells)).rounded(.down))
        let bar = String(repeating: "█", count: filled) + String(repeating: "░", count: cells - filled)
        return "\(style.green(bar))  \(text)"
    }

    func xpText(_ pet: PetView) -> String { PetText.xp(pet) }

    /// One task: handle, scheduled time, mark, title, and its notes right-aligned — on a line of
    /// their own under the title when both do not fit.
    func rows(_ task: TaskRecord, handleWidth: Int, width: Int, style: Style) -> [String] {
        let mark: String =
            task.done ? style.green("✓") : task.isNext ? style.cyan("→") : task.overdue ? style.red("!") : " "
        let lead = "\(TextWidth.padLeft(Handle.shown(task), to: handleWidth))  \(LocalClock.column(task.time)) "
        let prefix = "\(lead)\(mark) "
        let indent = TextWidth.columns(lead) + 2  // the mark is one column, whatever its colour codes
        let notes = Self.notes(task)
        let noteText = notes.joined(separator: " · ")
        let room = width - indent
        let title = TextWidth.truncate(Titles.clean(task.title), to: max(1, room))
        let titleWidth = TextWidth.columns(title)
        let shownTitle = Titles.isolate(task.done ? style.dim(title) : task.isNext ? style.bold(title) : title)
        let styledNotes = styleNotes(notes, task, style)
        if noteText.isEmpty { return [prefix + shownTitle] }
        let gap = room - titleWidth - TextWidth.columns(noteText)
        if gap >= 2 { return [prefix + shownTitle + String(repeating: " ", count: gap) + styledNotes] }
        let under = String(repeating: " ", count: indent)
        guard TextWidth.columns(noteText) <= room else {
            return [prefix + shownTitle, under + TextWidth.truncate(noteText, to: room)]
        }
        return [prefix + shownTitle, under + styledNotes]
    }

    /// What is worth saying about a task, most important first.
    static func notes(_ task: TaskRecord) -> [String] {
        var notes: [String] = []
        if task.done { notes.append(task.xp >= 2 ? "+\(task.xp) XP" : "+\(task.xp) XP \(task.judgement)") }
        if task.isNext { notes.append("next") }
        if task.overdue { notes.append("overdue") } else if task.due { notes.append("due") }
        if !task.done, task.snoozedUntil != 0 { notes.append("snoozed to \(task.effectiveTime)") }
        if !task.repeatRule.isEmpty { notes.append(task.repeatRule) }
        return notes
    }

    private func styleNotes(_ notes: [String], _ task: TaskRecord, _ style: Style) -> String {
        notes.map { note in
            switch note {
            case "overdue": style.red(note)
            case "due": style.yellow(note)
            case "next": style.cyan(note)
            case _ where note.hasPrefix("snoozed"): style.yellow(note)
            case _ where note.hasPrefix("+"): style.green(note)
            default: style.dim(note)
            }
        }.joined(separator: " · ")
    }

    /// The serial of `YYYYMMDD-N`, or the id as it is: what is shown of a task record without a
    /// number (from a daemon before numbers).
    static func handle(_ id: String) -> String {
        guard let dash = id.lastIndex(of: "-"), id[..<dash].count == 8 else { return id }
        return String(id[id.index(after: dash)...])
    }

    // MARK: --plain

    /// One sentence per line, for screen readers and scripts, in the entry's `accessible_text`
    /// wording.
    func plain() -> [String] {
        var lines = notice.map { ["\($0) \(Self.acknowledgeHint)"] } ?? []
        lines.append(AccessibleText.petSentence(live))
        if let formChange { lines.append(formChange) }
        if entry.restDay { lines.append(AccessibleText.restSentence) }
        if panelLags {
            lines.append(
                "Until \(LocalClock.time(entry.nextDate)) the panel shows \(AccessibleText.petSentence(entry.pet))")
        }
        let next = tasks.first(where: \.isNext).map {
            AccessibleText.Next(
                time: $0.effectiveTime, title: Titles.quoted($0.title), overdue: $0.overdue, due: $0.due)
        }
        lines.append(AccessibleText.countSentence(done: done, total: tasks.count))
        if !tasks.isEmpty { lines.append(AccessibleText.nextSentence(next)) }
        for task in tasks { lines.append(Self.plainSentence(task)) }
        return lines
    }

    static func plainSentence(_ task: TaskRecord) -> String {
        var facts: [String] = []
        if task.done { facts.append("done \(task.judgement), \(task.xp) XP") }
        if task.isNext { facts.append("next") }
        if task.overdue { facts.append("overdue") } else if task.due { facts.append("due") }
        if !task.done, task.snoozedUntil != 0 { facts.append("snoozed to \(task.effectiveTime)") }
        if !task.repeatRule.isEmpty { facts.append("repeats \(task.repeatRule)") }
        if facts.isEmpty { facts.append("pending") }
        return
            "Task \(Handle.shown(task)) at \(task.time), \(Titles.quoted(task.title)): \(facts.joined(separator: ", "))."
    }
}
