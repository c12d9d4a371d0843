import PetCore

/// One panel record for an entry, or for a stopped daemon (nil), in one format.
struct PanelLine {
    let format: PanelFormat
    let template: Template?
    let titleWidth: Int
    /// How the locale writes a task's time.
    let clock: ClockStyle

    /// The stage's base name (`petprogress-frog` → `frog`): the CSS class and `alt` of waybar.
    static func base(_ entry: WidgetEntry) -> String {
        let icon = entry.pet.iconName
        return icon.hasPrefix("petprogress-") ? String(icon.dropFirst("petprogress-".count)) : icon
    }

    /// The states a panel can style: `due` (still on time), `overdue`, `all-done`, `no-tasks`, and
    /// `rest` on a rest day.
    static func states(_ entry: WidgetEntry) -> [String] {
        let rest = entry.restDay ? ["rest"] : []
        if entry.tasksTotal == 0 { return ["no-tasks"] + rest }
        if entry.nextTaskID.isEmpty { return ["all-done"] + rest }
        return (entry.nextTaskOverdue ? ["overdue"] : entry.nextTaskDue ? ["due"] : []) + rest
    }

    /// The colour polybar and i3blocks give the line: red when the next task is overdue, amber
    /// when it is due (still on time), none otherwise.
    static func colour(_ entry: WidgetEntry) -> String? {
        entry.nextTaskOverdue ? "#e06c75" : entry.nextTaskDue ? "#e5c07b" : nil
    }

    /// What the text formats add on a rest day.
    static var restMarker: String { " · " + tr("rest") }

    func values(_ entry: WidgetEntry) -> [String: String] {
        let title = Escaping.singleLine(TextWidth.truncate(Titles.clean(entry.nextTaskTitle), to: titleWidth))
        return [
            "glyph": entry.pet.glyph, "done": "\(entry.tasksDone)", "total": "\(entry.tasksTotal)",
            "next_time": clock.wall(entry.nextTaskTime), "next_title": Titles.isolate(title),
            "stage": PetText.name(entry.pet), "xp": "\(entry.pet.stageXP)", "threshold": "\(entry.pet.threshold)",
            "percent": "\(Int((entry.pet.progress * 100).rounded(.down)))",
            "rest": entry.restDay ? tr("rest") : "",
        ]
    }

    /// The default text: `🐸 2/5 14:30 Write report` (`14:30!` when overdue), `🐸 5/5 ✓` when all
    /// is done, `🐸 no tasks` on an empty day; ` · rest` after it on a rest day.
    func text(_ entry: WidgetEntry, escape: (String) -> String) -> String {
        if let template { return template.render(values(entry), escape: escape) }
        let v = values(entry)
        func e(_ name: String) -> String { escape(v[name] ?? "") }
        let rest = entry.restDay ? escape(Self.restMarker) : ""
        let none = escape(tr("no tasks"))
        if entry.tasksTotal == 0 { return "\(e("glyph")) \(none)\(rest)" }
        if entry.nextTaskID.isEmpty { return "\(e("glyph")) \(e("done"))/\(e("total")) ✓\(rest)" }
        let mark = entry.nextTaskOverdue ? "!" : ""
        return "\(e("glyph")) \(e("done"))/\(e("total")) \(e("next_time"))\(mark) \(e("next_title"))\(rest)"
    }

    /// `🐸 2/5`, with `!` when the next task is overdue and ` · rest` on a rest day.
    func inline(_ entry: WidgetEntry) -> String {
        "\(entry.pet.glyph) \(entry.tasksDone)/\(entry.tasksTotal)\(entry.nextTaskOverdue ? "!" : "")"
            + (entry.restDay ? Self.restMarker : "")
    }

    /// The stage line and the next three tasks, one per line (for tooltips).
    func tooltip(_ entry: WidgetEntry, escape: (String) -> String) -> [String] {
        let pet = entry.pet
        let xp = pet.isFinal ? tr("%d XP", pet.stageXP) : tr("%d/%d XP", pet.stageXP, pet.threshold)
        let stage = tr("stage %d of %d", pet.stageIndex + 1, pet.stageCount)
        var lines = [escape("\(PetText.name(pet)) · \(stage) · \(xp)")]
        if entry.restDay { lines.append(escape(tr("Rest day: nothing is charged."))) }
        lines += entry.upcoming.map {
            let title = Titles.isolate(Escaping.singleLine(TextWidth.truncate(Titles.clean($0.title), to: 40)))
            let state = $0.overdue ? " (" + tr("overdue") + ")" : $0.due ? " (" + tr("due") + ")" : ""
            return escape("\(clock.wall($0.effectiveTime)) ") + escape(title) + escape(state)
        }
        if entry.upcoming.isEmpty {
            lines.append(escape(entry.tasksTotal == 0 ? tr("No tasks planned.") : tr("All done.")))
        }
        return lines
    }

    static var stoppedText: String { "💤 " + tr("not running") }

    func render(_ entry: WidgetEntry?) -> String {
        Escaping.singleLine(raw(entry))
    }

    private func raw(_ entry: WidgetEntry?) -> String {
        guard let entry else { return stopped() }
        switch format {
        case .text: return text(entry, escape: { $0 })
        case .inline: return template.map { $0.render(values(entry), escape: { $0 }) } ?? inline(entry)
        case .json: return EntryJSON.line(entry)
        case .polybar:
            let line = text(entry, escape: Escaping.polybar)
            return Self.colour(entry).map { "%{F\($0)}\(line)%{F-}" } ?? line
        case .i3blocks:
            var fields = [
                "\"full_text\":\(Escaping.json(text(entry, escape: Escaping.i3blocks)))",
                "\"short_text\":\(Escaping.json(inline(entry)))",
            ]
            if let colour = Self.colour(entry) { fields.append("\"color\":\"\(colour)\"") }
            return "{" + fields.joined(separator: ",") + "}"
        case .waybar:
            let classes = [Self.base(entry)] + Self.states(entry)
            return "{"
                + [
                    "\"text\":\(Escaping.json(text(entry, escape: Escaping.pango)))",
                    "\"tooltip\":\(Escaping.json(tooltip(entry, escape: Escaping.pango).joined(separator: "\n")))",
                    "\"class\":[\(classes.map(Escaping.json).joined(separator: ","))]",
                    "\"percentage\":\(Int((entry.pet.progress * 100).rounded(.down)))",
                    "\"alt\":\(Escaping.json(Self.base(entry)))",
                ].joined(separator: ",") + "}"
        }
    }

    private func stopped() -> String {
        switch format {
        case .text, .inline, .polybar: return Self.stoppedText
        case .json: return "{\"stopped\":true}"
        case .i3blocks:
            return "{\"full_text\":\(Escaping.json(Self.stoppedText)),\"short_text\":\"💤\",\"color\":\"#888888\"}"
        case .waybar:
            let tooltip = Escaping.json(tr("petprogressd is not running"))
            return "{\"text\":\"💤\",\"tooltip\":\(tooltip),\"class\":[\"stopped\"],"
                + "\"percentage\":0,\"alt\":\"stopped\"}"
        }
    }
}
