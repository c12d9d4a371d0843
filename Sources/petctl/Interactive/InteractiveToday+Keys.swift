import LinuxKit
import PetBus
import PetCore

/// The interactive Today screen's keys (petprogress(7) §7): what each one does, and the requests
/// it makes of the daemon, each answered on the status line.
extension InteractiveToday {
    func readKeys(_ events: EventLoop.Events) {
        var buffer = [UInt8](repeating: 0, count: 256)
        let count = (try? SystemCall.read(0, into: &buffer)) ?? 0
        guard count > 0 else {
            exitCode = 0  // end of input: the terminal is gone
            return
        }
        for key in Key.decode(Array(buffer.prefix(count))) where exitCode == nil { handle(key) }
        needsDraw = true
    }

    func handle(_ key: Key) {
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
        if let task = state.confirmingDelete {
            state.confirmingDelete = nil
            if key == .character("y") || key == .character("Y") {
                act { c throws(PetClientError) in
                    try c.deleteTask(task.id)
                    // What petctl rm says: the number, the time and the title.
                    return tr(
                        "Deleted %s: %s %s.", Handle.shown(task, tomorrow: state.showsTomorrow),
                        clock.wall(task.time), Titles.forLine(task.title, width: 60))
                }
            } else {
                state.say(tr("Kept %s.", Handle.shown(task, tomorrow: state.showsTomorrow)))
            }
            return
        }
        // Tomorrow's list: its own tasks (+N) are selected, edited and deleted as today's are;
        // done, snooze, undo and rest are today's.
        if state.showsTomorrow,
            ![
                .character("t"), .character("a"), .character("q"), .character("?"), .escape, .interrupt, .up, .down,
                .character("k"), .character("j"), .character("e"), .character("x"), .delete,
            ].contains(key)
        {
            return state.say(
                tr("This is tomorrow's list: t shows today's; a adds to tomorrow, e edits and x deletes its tasks."),
                problem: true)
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
                // What petctl done says: on time, early or late.
                let word = Done.judgement(xp: Int(xp), pending: task) {
                    try? c.listTasks(day: "").first { $0.id == task.id }?.judgement
                }
                return tr(
                    "Done: %s %s, +%d XP (%s).", Handle.shown(task), Titles.forLine(task.title, width: 60), Int(xp),
                    Done.judgement(word))
            }
        case .character("s"):
            onSelected { c, task throws(PetClientError) in
                let until = try c.snooze(task.id)
                // What petctl snooze says: the number and the title.
                return tr(
                    "Snoozed %s %s to %s.", Handle.shown(task), Titles.forLine(task.title, width: 60),
                    clock.time(until))
            }
        case .character("u"): undo()
        case .character("a"): open(.add(day: state.showsTomorrow ? "tomorrow" : "today"))
        case .character("e"):
            if state.showsTomorrow {
                guard let task = state.tomorrowSelected else {
                    return state.say(tr("No task is selected."), problem: true)
                }
                return open(.edit(task, day: "tomorrow"))
            }
            guard let task = state.selected else { return state.say(tr("No task is selected."), problem: true) }
            open(.edit(task))
        case .character("t"):
            state.showsTomorrow.toggle()
            state.say(state.showsTomorrow ? tr("Tomorrow: t shows today again.") : "")
            needsRefresh = true
        case .character("r"): toggleRest()
        case .character("x"), .delete:
            guard let task = state.showsTomorrow ? state.tomorrowSelected : state.selected else {
                return state.say(tr("No task is selected."), problem: true)
            }
            state.confirmingDelete = task
            state.say(
                tr(
                    "Delete %s (%s)? y deletes it, any other key keeps it.",
                    Handle.shown(task, tomorrow: state.showsTomorrow), Titles.forLine(task.title, width: 40)),
                problem: true)
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
                // "+20m" in the daemon's zone, as petctl add reads it.
                sent = try input.resolve(
                    now: status.now, dayEnd: status.openDayEnd,
                    wallTime: { status.daemonHHMM(at: $0) ?? LocalClock.hhmm($0) })
            } catch {
                return error.message
            }
            let title = prompt.title
            guard let task = prompt.editing else {
                let id = try c.addTask(title: title, time: sent, day: prompt.day, repeat: "")
                let added = try c.listTasks(day: prompt.day == "today" ? "" : prompt.day).first { $0.id == id }
                let shown = added.map { Handle.shown($0, tomorrow: prompt.day == "tomorrow") } ?? id
                return tr("Added %s: %s %s.", shown, clock.wall(sent), Titles.forLine(title, width: 60))
            }
            // Only what changed is sent: an unchanged time keeps the task's snooze.
            try c.updateTask(
                id: task.id, title: title == task.title ? "" : title, time: sent == task.time ? "" : sent)
            _ = task
            return tr("Updated %s: %s %s.", prompt.shown, clock.wall(sent), Titles.forLine(title, width: 60))
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
            return tr("Undone: %s %s is pending again.", Handle.shown(last), Titles.forLine(last.title, width: 60))
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
