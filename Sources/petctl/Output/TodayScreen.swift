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
    /// How the locale writes the times on the screen.
    let clock: ClockStyle
    /// The recovery notice (`GetStatus`), shown until it is acknowledged: whole in `--plain`, and
    /// on the screen as `noticeLine`, short enough for one line of 80 columns with its hint.
    var notice: String? = nil
    var noticeLine: String? = nil
    /// The clock that went back (`clock_behind`, petprogress(7) §3.1): one line until the user
    /// restores or acknowledges.
    var clockBehind: String? = nil
    /// The same as a whole sentence, for `--plain`.
    var clockBehindSentence: String? = nil
    /// What the closeouts since the screen was last shown did to the pet's form (said once).
    var formChange: String? = nil

    /// How the notice ends: what hides it.
    static var acknowledgeHint: String { tr("Hide this: petctl status --ack") }

    /// Whether the panel's hourly picture differs from the live pet.
    var panelLags: Bool { entry.pet.stageIndex != live.stageIndex || entry.pet.stageXP != live.stageXP }

    var done: Int { tasks.filter(\.done).count }

    // MARK: the screen

    func render(width: Int, style: Style) -> [String] {
        var lines = header(width: width, style: style)
        if tasks.isEmpty {
            lines += TextWidth.wrap(Self.addOne, width: width)
            return lines
        }
        lines += taskRows(width: width, style: style).flatMap { $0 }
        if tasks.allSatisfy(\.done) { lines += ["", tr("All done. Nothing pending.")] }
        return lines
    }

    /// What an empty day suggests.
    static var addOne: String { tr("Add one: petctl add 14:30 \"Write report\"") }

    /// Everything above the tasks: the notice, the pet, the panel's line, the day's count and a blank.
    func header(width: Int, style: Style) -> [String] {
        var lines: [String] = []
        if let clockBehind {
            lines.append(style.yellow(TextWidth.truncate("⚠ \(clockBehind)", to: max(1, width))))
        }
        if let notice {
            // One line, whatever the width: the whole sentence is in `petctl status`.
            let line = "⚠ \(noticeLine ?? notice) · petctl status --ack"  // not translated: a command
            lines.append(style.yellow(TextWidth.truncate(line, to: max(1, width))))
        }
        let name = Titles.quoted(PetText.name(live))
        let stage = tr("stage %d of %d", live.stageIndex + 1, live.stageCount)
        let parts =
            [("\(live.glyph) \(style.bold(name))", TextWidth.columns("\(live.glyph) \(name)"))]
            + ([stage] + (live.isFinal ? [tr("final form")] : [])).map { ($0, TextWidth.columns($0)) }
        // Parts joined by ` · `, a new line where the next would pass the width: a long form's name,
        // translated, at the final stage.
        lines += TextWidth.pack(parts, width: width, separator: " · ") + [progressLine(width: width, style: style)]
        if let formChange { lines += TextWidth.wrap(formChange, width: width).map(style.bold) }
        if entry.restDay {
            lines += TextWidth.wrap(tr("Rest day: nothing is charged today; done tasks still count."), width: width)
                .map(style.cyan)
        }
        if panelLags {
            let note = tr(
                "The panel shows %s until %s; it changes on the hour.",
                "\(entry.pet.glyph) \(Titles.quoted(PetText.name(entry.pet))) \(xpText(entry.pet))",
                clock.time(entry.nextDate))
            lines += TextWidth.wrap(note, width: width).map(style.dim)
        }
        let count = tasks.isEmpty ? tr("no tasks yet") : trn("%d of %d done", "%d of %d done", done, done, tasks.count)
        // Wrapped, not cut: a long day name and a translated count can pass 40 columns.
        lines += TextWidth.wrap("\(LocalClock.dayName(entry.dayKey)) · \(count)", width: width)
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
        let lead = "\(TextWidth.padLeft(Handle.shown(task), to: handleWidth))  \(clock.column(task.time)) "
        let prefix = "\(lead)\(mark) "
        let indent = TextWidth.columns(lead) + 2  // the mark is one column, whatever its colour codes
        let notes = self.notes(task)
        let noteText = notes.map(\.text).joined(separator: " · ")
        let room = width - indent
        let title = TextWidth.truncate(Titles.clean(task.title), to: max(1, room))
        let titleWidth = TextWidth.columns(title)
        let shownTitle = Titles.isolate(task.done ? style.dim(title) : task.isNext ? style.bold(title) : title)
        let styledNotes = notes.map { $0.styled(style) }.joined(separator: " · ")
        if noteText.isEmpty { return [prefix + shownTitle] }
        let gap = room - titleWidth - TextWidth.columns(noteText)
        if gap >= 2 { return [prefix + shownTitle + String(repeating: " ", count: gap) + styledNotes] }
        let under = String(repeating: " ", count: indent)
        guard TextWidth.columns(noteText) <= room else {
            // Whole notes a line (`überfällig · täglich` is never cut to `täg…`); a note wider
            // than the room wraps at its spaces.
            var out = [prefix + shownTitle]
            var line: [Note] = []
            for note in notes {
                if TextWidth.columns((line + [note]).map(\.text).joined(separator: " · ")) <= room {
                    line.append(note)
                    continue
                }
                if !line.isEmpty { out.append(under + line.map { $0.styled(style) }.joined(separator: " · ")) }
                line = []
                if TextWidth.columns(note.text) <= room {
                    line = [note]
                } else {
                    out += TextWidth.wrap(note.text, width: max(1, room)).map { under + $0 }
                }
            }
            if !line.isEmpty { out.append(under + line.map { $0.styled(style) }.joined(separator: " · ")) }
            return out
        }
        return [prefix + shownTitle, under + styledNotes]
    }

    /// What is worth saying about a task, most important first, each in its colour.
    func notes(_ task: TaskRecord) -> [Note] {
        var notes: [Note] = []
        if task.done {
            let judgement = trc("judgement", dynamic: task.judgement)
            notes.append(Note(task.xp >= 2 ? tr("+%d XP", task.xp) : tr("+%d XP %s", task.xp, judgement), .green))
        }
        if task.isNext { notes.append(Note(tr("next"), .cyan)) }
        if task.overdue {
            notes.append(Note(tr("overdue"), .red))
        } else if task.due {
            notes.append(Note(tr("due"), .yellow))
        }
        if !task.done, task.snoozedUntil != 0 {
            notes.append(Note(tr("snoozed to %s", clock.wall(task.effectiveTime)), .yellow))
        }
        if !task.repeatRule.isEmpty { notes.append(Note(PetText.rule(task.repeatRule), .dim)) }
        return notes
    }

    /// One note of a task row and the colour it is shown in.
    struct Note {
        enum Colour { case green, cyan, red, yellow, dim }
        let text: String
        let colour: Colour

        init(_ text: String, _ colour: Colour) {
            self.text = text
            self.colour = colour
        }

        func styled(_ style: Style) -> String {
            switch colour {
            case .green: style.green(text)
            case .cyan: style.cyan(text)
            case .red: style.red(text)
            case .yellow: style.yellow(text)
            case .dim: style.dim(text)
            }
        }
    }

    /// The serial of `YYYYMMDD-N`, or the id as it is: what is shown of a task record without a
    /// number (from a daemon before numbers).
    static func handle(_ id: String) -> String {
        guard let dash = id.lastIndex(of: "-"), id[..<dash].count == 8 else { return id }
        return String(id[id.index(after: dash)...])
    }

    // MARK: --plain

    /// One sentence per line, for screen readers and scripts, in the entry's `accessible_text`
    /// wording (petprogress(7) §6.2), in the user's language.
    func plain() -> [String] {
        var lines = (clockBehindSentence ?? clockBehind).map { [$0] } ?? []
        lines += notice.map { ["\($0) \(Self.acknowledgeHint)"] } ?? []
        lines.append(Self.petSentence(live))
        if let formChange { lines.append(formChange) }
        if entry.restDay { lines.append(tr("Rest day.")) }
        if panelLags {
            lines.append(
                tr("Until %s the panel shows %s", clock.time(entry.nextDate), Self.petSentence(entry.pet)))
        }
        lines.append(
            tasks.isEmpty
                ? tr("No tasks planned.")
                : trn("%d of %d task done.", "%d of %d tasks done.", tasks.count, done, tasks.count))
        if !tasks.isEmpty { lines.append(nextSentence(tasks.first(where: \.isNext))) }
        for task in tasks { lines.append(plainSentence(task)) }
        return lines
    }

    /// `Frog, stage 3 of 20, 12 of 30 XP.`, or `…, final form, 7 XP.`
    static func petSentence(_ pet: PetView) -> String {
        let name = PetText.name(pet)
        return pet.isFinal
            ? tr("%s, stage %d of %d, final form, %d XP.", name, pet.stageIndex + 1, pet.stageCount, pet.stageXP)
            : tr(
                "%s, stage %d of %d, %d of %d XP.", name, pet.stageIndex + 1, pet.stageCount, pet.stageXP, pet.threshold
            )
    }

    /// `Next: 14:30 Write report.` (`, due` or `, overdue` when it is), or `Nothing pending.`
    func nextSentence(_ next: TaskRecord?) -> String {
        guard let next else { return tr("Nothing pending.") }
        let title = Titles.quoted(next.title)
        if next.overdue { return tr("Next: %s %s, overdue.", clock.wall(next.effectiveTime), title) }
        if next.due { return tr("Next: %s %s, due.", clock.wall(next.effectiveTime), title) }
        return tr("Next: %s %s.", clock.wall(next.effectiveTime), title)
    }

    func plainSentence(_ task: TaskRecord) -> String {
        var facts: [String] = []
        if task.done { facts.append(tr("done %s, %d XP", trc("judgement", dynamic: task.judgement), task.xp)) }
        if task.isNext { facts.append(tr("next")) }
        if task.overdue { facts.append(tr("overdue")) } else if task.due { facts.append(tr("due")) }
        if !task.done, task.snoozedUntil != 0 { facts.append(tr("snoozed to %s", clock.wall(task.effectiveTime))) }
        if !task.repeatRule.isEmpty { facts.append(tr("repeats %s", PetText.rule(task.repeatRule))) }
        if facts.isEmpty { facts.append(tr("pending")) }
        return tr(
            "Task %s at %s, %s: %s.", Handle.shown(task), clock.wall(task.time), Titles.quoted(task.title),
            facts.joined(separator: ", "))
    }
}
