/// One picture of the interactive Today screen: the printout's lines (petprogress(7) §7) with a
/// selection gutter, a status line and the keys' footer, exactly `height` lines of at most `width`
/// columns. Pure: the loop draws it in one write.
struct InteractiveFrame {
    var lines: [String] = []
    /// The task id shown on each 1-based screen row, for clicks.
    var taskAtRow: [Int: String] = [:]

    /// The keys' footer: the whole of it when it fits, else the short one, which fits 40 columns
    /// (the rest of the keys are behind `?`).
    static func footer(width: Int, tomorrow: Bool = false) -> String {
        // Tomorrow's list takes only these keys: its footer names no other.
        if tomorrow {
            let whole = tr("t today  a add  e edit  x delete  ? keys  q quit")
            guard TextWidth.columns(whole) > width else { return whole }
            return trc("tomorrow's footer, at most 40 columns", "t today  a add  e edit  x delete  q quit")
        }
        let whole = tr("⏎ done  s snooze  u undo  ? keys  q quit")
        guard TextWidth.columns(whole) > width else { return whole }
        return trc("footer, at most 40 columns", "⏎ done  s snooze  u undo  ? keys  q quit")
    }

    /// The help page; its key column is 14 wide, so the words after it fit 26 columns.
    static var help: [String] {
        [
            tr("Keys"),
            "",
            tr("↑ ↓ or j k    move"),
            tr("Enter, Space  mark the task done"),
            tr("s             snooze it"),
            tr("u             undo the last completion"),
            tr("x, Delete     delete it (y confirms)"),
            tr("a             add a task (time, title)"),
            tr("e             edit it"),
            tr("t             tomorrow's list, and back"),
            tr("r             today a rest day, or not"),
            tr("click         select a row"),
            tr("?             these keys"),
            tr("q, Esc        leave"),
            "",
            tr("Any key closes this."),
        ]
    }

    init(_ state: InteractiveState, width: Int, height: Int, style: Style) {
        let status = Self.statusLines(state, width: width)
        let bodyHeight = max(0, height - 1 - max(1, status.count))
        var body: [String] = []
        if state.showsHelp {
            body = Self.help.map { TextWidth.truncate($0, to: width) }
        } else if state.showsTomorrow, let tomorrow = state.tomorrow {
            body = tomorrow.render(width: width, style: style, selected: state.tomorrowSelectedID ?? "")
        } else if let screen = state.screen {
            body = screen.header(width: width, style: style)
            if screen.tasks.isEmpty {
                body += TextWidth.wrap(TodayScreen.addOne, width: width)
            } else {
                body += taskLines(
                    screen, state: state, first: body.count, room: bodyHeight - body.count, width: width,
                    style: style)
            }
        }
        body = Array(body.prefix(bodyHeight))
        body += Array(repeating: "", count: bodyHeight - body.count)
        lines =
            body + (status.isEmpty ? [""] : status.map { state.statusIsProblem ? style.yellow($0) : style.bold($0) })
        let tomorrowShown = state.showsTomorrow && !state.showsHelp
        lines.append(style.dim(TextWidth.truncate(Self.footer(width: width, tomorrow: tomorrowShown), to: width)))
        lines = Array(lines.suffix(height))
    }

    /// The status line, wrapped at whole words: up to three lines (the daemon's sentences can be
    /// long). An open prompt that needs more keeps its keys (`(Enter: save, Esc: cancel)`) whole
    /// on the last line: the sentence before them gets the lines left, its start for a time (what
    /// is wrong with it), its end for a title (where the cursor is), with `…` where words were left out.
    static func statusLines(_ state: InteractiveState, width: Int) -> [String] {
        let all = TextWidth.wrap(state.status, width: width)
        guard all.count > 3, let prompt = state.prompt, state.status == prompt.line.text else {
            return Array(all.prefix(3))
        }
        let (said, keys, _) = prompt.parts
        let keyLines = Array(TextWidth.wrap(keys, width: width).prefix(2))
        let room = 3 - keyLines.count
        var words = said.split(separator: " ").map(String.init)
        var lines = TextWidth.wrap(said, width: width)
        let fromEnd = prompt.field == .title
        while lines.count > room, words.count > 1 {
            if fromEnd { words.removeFirst() } else { words.removeLast() }
            let kept = words.joined(separator: " ")
            lines = TextWidth.wrap(fromEnd ? "… " + kept : kept + " …", width: width)
        }
        return Array(lines.prefix(room)) + keyLines
    }

    /// The task rows after `first` header lines, scrolled so that the selected task is in `room`.
    private mutating func taskLines(
        _ screen: TodayScreen, state: InteractiveState, first: Int, room: Int, width: Int, style: Style
    ) -> [String] {
        let rows = screen.taskRows(width: max(1, width - 2), style: style)
        var lines: [String] = []
        var owners: [String] = []
        var selectedEnd = 0
        var gutters: [Bool] = []  // whether a line's first column is free for a scroll mark
        for (task, taskLines) in zip(screen.tasks, rows) {
            let selected = task.id == state.selectedID
            for (n, line) in taskLines.enumerated() {
                lines.append((selected && n == 0 ? style.bold("›") : " ") + " " + line)
                owners.append(task.id)
                gutters.append(!(selected && n == 0))
            }
            // A title the row had to cut is shown whole beneath it while the task is selected.
            let title = Titles.clean(task.title)
            if selected, !taskLines.joined().contains(title) {
                for line in TextWidth.wrap(title, width: max(1, width - 4)).prefix(3) {
                    lines.append("    " + style.dim(Titles.isolate(line)))
                    owners.append(task.id)
                    gutters.append(true)
                }
            }
            if selected { selectedEnd = lines.count }
        }
        let offset = max(0, selectedEnd - max(1, room))
        for (n, owner) in owners.enumerated().dropFirst(offset) { taskAtRow[first + n - offset + 1] = owner }
        var shown = Array(lines.dropFirst(offset).prefix(max(0, room)))
        // Marks in the gutter: rows above (↑) and below (↓) the visible ones.
        if offset > 0, let top = shown.indices.first, gutters[offset] {
            shown[top] = style.dim("↑") + String(shown[top].dropFirst())
        }
        if lines.count - offset > shown.count, let bottom = shown.indices.last, gutters[offset + bottom] {
            shown[bottom] = style.dim("↓") + String(shown[bottom].dropFirst())
        }
        return shown
    }
}
