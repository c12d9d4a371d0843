import ArgumentParser
import DBusKit
import Glibc
import LinuxKit
import PetBus
import PetCore

/// The loop behind `petctl today --interactive` (petprogress(7) §7): one poll loop over the bus
/// (`TasksChanged` and `EntryChanged`, as `watch` follows them), the keyboard, the due/overdue
/// flip timer and the signals; the screen is drawn in one write per change. It never polls.
final class InteractiveToday {
    let connection: Connection
    let client: PetClient
    let modes = TerminalModes()
    let loop = EventLoop()
    let timer: TimerFD
    let signals: SignalFD
    var state = InteractiveState()
    var style: Style
    /// The daemon is gone: wait for its name, and do not call it (that would activate it again).
    var stopped = false
    var needsRefresh = true
    var needsDraw = true
    var exitCode: Int32?
    var frame: InteractiveFrame?

    init(color: Bool) throws {
        signals = try SignalFD(signals: [SIGTERM, SIGINT, SIGHUP, SIGWINCH])
        timer = try TimerFD(clock: .realtime)
        do {
            connection = try Connection.session()
        } catch {
            throw Session.fail(.unreachable(error as? DBusError ?? .failed("\(error)")))
        }
        client = PetClient(connection: connection, timeout: Session.replyTimeout(.seconds(10)))
        style = Style(on: color)
    }

    /// Runs until `q`, Esc, a signal or a lost terminal; the terminal's modes are restored on every
    /// way out, thrown errors included.
    func run() throws -> Int32 {
        // The first read activates the daemon, as `petctl today` does, and fails before the screen.
        state.screen = try Session.run { try Today.screen($0) }
        state.settle()
        try loop.add(connection)
        try subscribe()
        loop.addFD(signals.fd) { [unowned self] _ in
            for signal in signals.read() {
                if signal == SIGWINCH { needsDraw = true } else { exitCode = 0 }
            }
        }
        loop.addFD(timer.fd) { [unowned self] _ in if timer.read() != .notYet { needsRefresh = true } }
        loop.addFD(0) { [unowned self] events in readKeys(events) }
        do {
            try modes.enter()
        } catch {
            Output.error(tr("cannot put the terminal in raw mode (%s); use petctl today", "\(error)"))
            return 1
        }
        defer { modes.leave() }
        while exitCode == nil {
            if needsRefresh {
                needsRefresh = false
                refresh()
                needsDraw = true
            }
            if needsDraw {
                needsDraw = false
                draw()
                continue
            }
            let ended = !loop.run(until: { needsRefresh || needsDraw || exitCode != nil }, timeout: .seconds(86_400))
            if ended, !connection.isConnected {
                modes.leave()
                Output.error(tr("lost the session bus; exiting"))
                return 3
            }
        }
        return exitCode ?? 0
    }

    private func subscribe() throws {
        do {
            _ = try client.subscribe { [unowned self] signal in
                switch signal {
                case .entryChanged, .tasksChanged: needsRefresh = true
                case .propertiesChanged: break  // always accompanies one of the two
                }
            }
        } catch {
            throw Session.fail(error)
        }
        try connection.onNameOwnerChanged(PetBus.name) { [unowned self] present in
            if !present {
                stopped = true
                state.say(Self.notRunning, problem: true)
                needsDraw = true
            } else {
                stopped = false
                state.say("")
                needsRefresh = true
            }
        }
    }

    static var notRunning: String { tr("not running: waiting for petprogressd") }

    private func refresh() {
        guard !stopped else { return }
        do {
            var screen = try Today.screen(client)
            // The form-change line is said once per closeout: keep it for this screen's life.
            screen.formChange = screen.formChange ?? state.screen?.formChange
            state.screen = screen
            state.settle()
            if state.showsTomorrow { state.tomorrow = try Tomorrow.screen(client) }
            let status = try client.status()
            timer.armForNextFlip(screen.entry, daemonNow: status.now, scale: status.timeScale)
        } catch let error as PetClientError {
            report(error)
        } catch {
            state.say("\(error)", problem: true)
        }
    }

    private func report(_ error: PetClientError) {
        switch error {
        case .unreachable:
            stopped = true
            state.say(Self.notRunning, problem: true)
        case .noAnswer:
            state.say(tr("petprogressd did not answer in time; it may or may not have happened"), problem: true)
        default:
            state.say(Session.describe(error), problem: true)
        }
    }

    // MARK: drawing

    private func draw() {
        var size = winsize()
        let ok = ioctl(1, UInt(TIOCGWINSZ), &size) == 0 && size.ws_col > 0 && size.ws_row > 0
        let (width, height) = ok ? (Int(size.ws_col), Int(size.ws_row)) : (80, 24)
        let frame = InteractiveFrame(state, width: width, height: height, style: style)
        self.frame = frame
        // Home, then each line cleared and written: one write per picture.
        var text = "\u{1B}[H"
        for (n, line) in frame.lines.enumerated() {
            text += "\u{1B}[2K" + TerminalText.clean(line) + (n + 1 < frame.lines.count ? "\r\n" : "")
        }
        // A terminal that went away (SIGHUP, EIO, a broken pipe) ends the screen.
        if !Output.writeAll(Array(text.utf8), to: 1) { exitCode = 0 }
    }

    // MARK: keys

    private func readKeys(_ events: EventLoop.Events) {
        var buffer = [UInt8](repeating: 0, count: 256)
        let count = (try? SystemCall.read(0, into: &buffer)) ?? 0
        guard count > 0 else {
            exitCode = 0  // end of input: the terminal is gone
            return
        }
        for key in Key.decode(Array(buffer.prefix(count))) where exitCode == nil { handle(key) }
        needsDraw = true
    }

    private func handle(_ key: Key) {
        if state.showsHelp {
            state.showsHelp = false
            return
        }
        if var prompt = state.prompt {
            if key == .escape || key == .interrupt {
                state.prompt = nil
                return state.say(tr("Nothing changed."))
            }
            let submit = prompt.type(key)
            state.prompt = prompt
            if submit {
                state.prompt = nil
                save(prompt)
            } else {
                state.say(prompt.line.text, problem: prompt.line.problem)
            }
            return
        }
        if state.showsTomorrow,
            ![.character("t"), .character("a"), .character("q"), .character("?"), .escape]
                .contains(key)
        {
            return state.say(tr("This is tomorrow's list: t shows today's, a adds to tomorrow."), problem: true)
        }
        if let task = state.confirmingDelete {
            state.confirmingDelete = nil
            if key == .character("y") || key == .character("Y") {
                act { c throws(PetClientError) in
                    try c.deleteTask(task.id)
                    return tr("Deleted %s %s.", Handle.shown(task), Titles.forLine(task.title, width: 60))
                }
            } else {
                state.say(tr("Kept %s.", Handle.shown(task)))
            }
            return
        }
        switch key {
        case .character("q"), .escape, .interrupt: exitCode = 0
        case .up, .character("k"): state.move(-1)
        case .down, .character("j"): state.move(1)
        case .click(let row): if let id = frame?.taskAtRow[row] { state.selectedID = id }
        case .character("?"): state.showsHelp = true
        case .enter, .character(" "):
            onSelected { c, task throws(PetClientError) in
                let xp = try c.markDone(task.id)
                return tr("Done: %s %s, +%d XP.", Handle.shown(task), Titles.forLine(task.title, width: 60), xp)
            }
        case .character("s"):
            onSelected { c, task throws(PetClientError) in
                let until = try c.snooze(task.id)
                return tr("Snoozed %s to %s.", Handle.shown(task), LocalClock.time(until))
            }
        case .character("u"): undo()
        case .character("a"): open(.add(day: state.showsTomorrow ? "tomorrow" : "today"))
        case .character("e"):
            guard let task = state.selected else { return state.say(tr("No task is selected."), problem: true) }
            open(.edit(task))
        case .character("t"):
            state.showsTomorrow.toggle()
            state.say(state.showsTomorrow ? tr("Tomorrow: t shows today again.") : "")
            needsRefresh = true
        case .character("r"): toggleRest()
        case .character("x"), .delete:
            guard let task = state.selected else { return state.say(tr("No task is selected."), problem: true) }
            state.confirmingDelete = task
            state.say(tr("Delete %s? y deletes it, any other key keeps it.", Handle.shown(task)), problem: true)
        default: break
        }
    }

    private func open(_ prompt: Prompt) {
        guard !stopped else { return state.say(Self.notRunning, problem: true) }
        state.prompt = prompt
        state.say(prompt.line.text, problem: prompt.line.problem)
    }

    /// Adds or edits as the prompt says: the time as `petctl add` reads it, on the daemon's clock.
    private func save(_ prompt: Prompt) {
        guard case .success(let input) = prompt.verdict else { return }
        act { c throws(PetClientError) in
            let status = try c.status()
            let sent: String
            do throws(TimeInputError) {
                sent = try input.resolve(now: status.now, dayEnd: status.openDayEnd, wallTime: LocalClock.hhmm)
            } catch {
                return error.message
            }
            let title = prompt.title
            guard let task = prompt.editing else {
                let id = try c.addTask(title: title, time: sent, day: prompt.day, repeat: "")
                let added = try c.listTasks(day: prompt.day == "today" ? "" : prompt.day).first { $0.id == id }
                let shown = added.map { Handle.shown($0, tomorrow: prompt.day == "tomorrow") } ?? id
                return tr("Added %s: %s %s.", shown, sent, Titles.forLine(title, width: 60))
            }
            // Only what changed is sent: an unchanged time keeps the task's snooze.
            try c.updateTask(
                id: task.id, title: title == task.title ? "" : title, time: sent == task.time ? "" : sent)
            return tr("Updated %s: %s %s.", Handle.shown(task), sent, Titles.forLine(title, width: 60))
        }
    }

    /// `r`: today becomes a rest day, or an ordinary day again.
    private func toggleRest() {
        act { c throws(PetClientError) in
            let today = try c.status().openDay
            let resting = try c.listRestDays().contains(today)
            try c.setRest(from: today, to: today, rest: !resting)
            return resting
                ? tr("Today is an ordinary day again.")
                : tr("Today is a rest day: its tasks are not judged (r again undoes it).")
        }
    }

    private func undo() {
        guard let last = state.tasks.filter(\.done).max(by: { $0.completedSeq < $1.completedSeq }) else {
            return state.say(tr("nothing to undo: no task is done today"), problem: true)
        }
        act { c throws(PetClientError) in
            try c.undo(last.id)
            return tr("Undone: %s is pending again.", Handle.shown(last))
        }
    }

    private func onSelected(_ body: (PetClient, TaskRecord) throws(PetClientError) -> String) {
        guard let task = state.selected else { return state.say(tr("No task is selected."), problem: true) }
        act { c throws(PetClientError) in try body(c, task) }
    }

    /// Makes one request; its sentence, or the daemon's refusal, goes to the status line. While the
    /// daemon is away nothing is sent (a call would start it again behind the user's back).
    private func act(_ body: (PetClient) throws(PetClientError) -> String) {
        guard !stopped else { return state.say(Self.notRunning, problem: true) }
        do {
            state.say(try body(client))
            needsRefresh = true
        } catch {
            report(error)
        }
    }
}
