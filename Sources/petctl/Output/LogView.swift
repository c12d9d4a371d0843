import PetCore

/// `petctl log`: a closed day's events with their XP in the rules' order and the pet before and
/// after, on one line when it fits and wrapped between events when not; a record whose events do
/// not add up, or do not replay to its closing pet, says so on lines of their own.
struct LogView {
    let stages: StageTable
    let width: Int
    let style: Style
    /// How the locale writes the times of completions.
    let clock: ClockStyle

    /// The lines of one closed day.
    func lines(_ record: HistoryRecord) -> [String] {
        let story = DayStory(record, stages: stages)
        let header = LocalClock.shortDayName(record.dayKey)
        // Wide: the events follow the day's name; narrow: they go under it.
        let indent = width >= 60 ? TextWidth.columns(header) + 2 : 2
        let room = max(20, width - indent)
        let unjudged = record.rest ? tr("rest day") : record.away ? tr("away") : tr("return day")
        var items: [Item] = []
        for (step, moment) in zip(story.steps, story.moments(stages: stages)) {
            items.append(item(step, room: room, unjudged: unjudged))
            if let moment { items.append(momentItem(moment)) }
        }
        if record.rest {
            items.append(plainItem(tr("no daily result: rest day")))
        } else if record.away {
            items.append(plainItem(tr("no daily result: away (untouched, after an untouched day)")))
        } else if record.returned {
            items.append(plainItem(tr("no daily result: return day, judged as a rest day")))
        } else if record.tasks.isEmpty {
            items.append(plainItem(tr("no tasks, no daily result")))
        }
        items += result(story, room: room)
        var lines = pack(items, room: room).enumerated().map { n, line in
            n == 0 && width >= 60 ? header + "  " + line : String(repeating: " ", count: indent) + line
        }
        if width < 60 { lines.insert(header, at: 0) }
        return lines + mismatches(story).flatMap { TextWidth.wrap($0, width: room).map { pad(indent) + style.red($0) } }
    }

    /// A day in the range with no record.
    func noRecord(_ key: String) -> [String] {
        let header = LocalClock.shortDayName(key)
        let note = style.dim(tr("no record (nothing changed that day)"))
        return width >= 60 ? ["\(header)  \(note)"] : [header, "  \(note)"]
    }

    /// A piece of a day's line: its plain text (what is measured, and cut when a line is too
    /// narrow for it) and how to colour it.
    struct Item {
        let text: String
        let paint: (String) -> String
    }

    /// `unjudged`: why an undone task was not charged (a rest, an away or a return day).
    func item(_ step: DayStory.Step, room: Int, unjudged: String = tr("rest day")) -> Item {
        switch step {
        case .done(let t):
            return task(t, xp: t.xp, note: tr("(%s, %s)", judgement(t), clock.time(t.completedAt)), room: room)
        case .missed(let t): return task(t, xp: -2, note: tr("(missed)"), room: room)
        case .uncharged(let t): return task(t, xp: 0, note: tr("(not done, %s)", unjudged), room: room)
        case .dailyResult(let done, let total):
            let xp = step.event?.xp ?? 0
            return xp == 0
                ? plainItem(tr("no daily result (%d of %d done)", done, total))
                : signedItem(xp, tr("daily result (%d of %d done)", done, total))
        }
    }

    /// How a done task was judged (petprogress(7) §3), in the user's words.
    func judgement(_ task: TaskRecord) -> String {
        task.xp >= 2 ? tr("on time") : task.completedAt < task.scheduledAt ? tr("early") : tr("late")
    }

    /// `+2 Title (on time, 14:31)`, the title cut to what the line has room for.
    func task(_ task: TaskRecord, xp: Int, note: String, room: Int) -> Item {
        let fixed = TextWidth.columns(PetText.signed(xp)) + 2 + TextWidth.columns(note)
        return signedItem(xp, Titles.forLine(task.title, width: max(8, room - fixed)) + " " + note)
    }

    /// `+2 …` with the sign in green (a gain), red (a loss) or dim (nothing).
    func signedItem(_ xp: Int, _ text: String) -> Item {
        let sign = PetText.signed(xp)
        let painted: String
        if xp > 0 {
            painted = style.green(sign)
        } else if xp < 0 {
            painted = style.red(sign)
        } else {
            painted = style.dim(sign)
        }
        return Item(text: sign + " " + text) { painted + String($0.dropFirst(sign.count)) }
    }

    func plainItem(_ text: String) -> Item { Item(text: text, paint: style.dim) }

    /// `↑ Hermit Crab (evolved; 1 XP over dropped)`, or `↓ Minnow 18/20 (de-evolved: 20 − 1 − 1)`:
    /// the arithmetic of petprogress(7) §2.1, so the reader can check it.
    func momentItem(_ moment: DayStory.Moment) -> Item {
        switch moment {
        case .evolved(_, let to, let dropped):
            let name = trc("pet form", dynamic: stages.stage(to.stageIndex).name)
            let text =
                dropped > 0
                ? tr("↑ %s (evolved; %d XP over the threshold dropped)", name, dropped) : tr("↑ %s (evolved)", name)
            return Item(text: text, paint: style.bold)
        case .deEvolved(_, let fell, let to):
            let threshold = stages.threshold(to.stageIndex)
            let sum = "\(threshold) − 1 − \(-fell)"
            let floored = threshold - 1 + fell < 0 ? tr(" < 0, so 0") : ""
            return Item(text: tr("↓ %s (de-evolved: %s%s)", PetText.short(to, stages), sum, floored), paint: style.bold)
        }
    }

    /// `→ Frog 12/30 (was Frog 11/30)`, or `(unchanged)`; two items when a line is too narrow.
    func result(_ story: DayStory, room: Int) -> [Item] {
        let after = "→ \(PetText.short(story.recorded, stages))"
        let was =
            story.recorded == story.before ? tr("(unchanged)") : tr("(was %s)", PetText.short(story.before, stages))
        let bold = style.bold
        guard TextWidth.columns(after + " " + was) > room else {
            return [Item(text: after + " " + was) { bold(String($0.prefix(after.count))) + $0.dropFirst(after.count) }]
        }
        return [Item(text: after, paint: bold), Item(text: was) { $0 }]
    }

    /// Items joined by two spaces, a new line when the next would pass `room`; an item wider
    /// than a whole line is cut.
    func pack(_ items: [Item], room: Int) -> [String] {
        TextWidth.pack(
            items.map { item in
                let text = TextWidth.truncate(item.text, to: room)
                return (item.paint(text), TextWidth.columns(text))
            }, width: room)
    }

    /// What does not agree with the record, one sentence each.
    func mismatches(_ story: DayStory) -> [String] {
        let r = story.record
        var sentences: [String] = []
        if story.xpSum != r.xpChange {
            sentences.append(
                tr(
                    "! mismatch: these events add up to %s XP, the record says %s XP", PetText.signed(story.xpSum),
                    PetText.signed(r.xpChange)))
        }
        if story.dailyXP != r.dailyXP {
            sentences.append(
                tr(
                    "! mismatch: the daily result should be %s XP, the record says %s XP",
                    PetText.signed(story.dailyXP),
                    PetText.signed(r.dailyXP)))
        }
        if !story.replayAgrees {
            sentences.append(
                tr(
                    "! mismatch: replayed from %s these events give %s, the record says %s (has the stage table changed?)",
                    PetText.short(story.before, stages), PetText.short(story.replayed, stages),
                    PetText.short(story.recorded, stages)))
        }
        return sentences
    }

    private func pad(_ n: Int) -> String { String(repeating: " ", count: n) }
}
