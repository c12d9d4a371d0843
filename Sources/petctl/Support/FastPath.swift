import ArgumentParser

/// The few command lines a panel runs on every click and every few seconds — `petctl`, `today`,
/// `done`, `snooze`, `widget`, `widget --format F` — read without argument-parser.
///
/// argument-parser finds a command's options by reflection: for `petctl today` that is about
/// 9 of 15 million instructions (callgrind), most of them scanning this static binary's protocol
/// conformances, and it keeps petctl behind `busctl` (docs/DECISIONS.md, "A fast path for a panel's everyday lines").
/// These lines make the very commands argument-parser would, defaults included; a test checks that
/// for each of them.
/// Any other line, however close, goes through argument-parser as before.
enum FastPath {
    /// The command for `arguments` (after the program name), validated, or nil.
    static func command(_ arguments: [String]) throws -> (any ParsableCommand)? {
        var command: (any ParsableCommand)?
        switch arguments.first {
        case nil where arguments.isEmpty, "today" where arguments.count == 1: command = today()
        case "done" where arguments.count == 1: command = done()
        case "snooze" where arguments.count == 1: command = snooze()
        case "widget": command = widget(arguments.dropFirst())
        default: command = nil
        }
        try command?.validate()
        return command
    }

    private static func today() -> Today {
        var display = DisplayOptions()
        display.plain = false
        display.color = .auto
        var today = Today()
        today.display = display
        today.interactive = false
        return today
    }

    private static func done() -> Done {
        var done = Done()
        done.task = nil
        return done
    }

    private static func snooze() -> Snooze {
        var snooze = Snooze()
        snooze.task = nil
        return snooze
    }

    /// `widget` and `widget --format F` (also `--format=F`) for a format petctl knows.
    private static func widget(_ options: ArraySlice<String>) -> Widget? {
        let name: String?
        switch options.count {
        case 0: name = PanelFormat.text.rawValue
        case 1 where options[options.startIndex].hasPrefix("--format="):
            name = String(options[options.startIndex].dropFirst("--format=".count))
        case 2 where options[options.startIndex] == "--format": name = options.last
        default: return nil
        }
        guard let name, let format = PanelFormat(rawValue: name) else { return nil }
        var panel = PanelOptions()
        panel.format = format
        panel.template = nil
        panel.titleWidth = PanelOptions.defaultTitleWidth
        var widget = Widget()
        widget.panel = panel
        return widget
    }
}
