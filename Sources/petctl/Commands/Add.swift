import ArgumentParser
import PetBus
import PetCore

/// `petctl add HH:MM TITLE [--repeat …] [--tomorrow]`.
struct Add: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "add",
        abstract: tr("Add a task for today (or tomorrow), once or repeating."),
        discussion: tr(
            """
            Examples:
              petctl add 14:30 "Write report"
              petctl add 07:00 Stretch --repeat weekdays
              petctl add 9:30am Dentist --tomorrow
              petctl add +20m "Call back"
            """))

    @Argument(help: ArgumentHelp(tr("The time: %s", TimeInput.help)))
    var time: String

    @Argument(help: ArgumentHelp(tr("The title (1–200 characters; quote it if it has spaces).")))
    var title: [String]

    @Option(name: .long, help: ArgumentHelp(tr("Repeat: daily, weekdays, or days such as mon,wed,fri.")))
    var `repeat`: String?

    @Flag(help: ArgumentHelp(tr("Add it for tomorrow instead of today.")))
    var tomorrow = false

    var joinedTitle: String { title.joined(separator: " ") }

    func validate() throws {
        let input = try TimeInput.validated(time)
        if tomorrow, case .later = input {
            throw ValidationError(
                tr("%s counts from now; for tomorrow give a clock time such as 9:30 or 9:30am", quoted(time)))
        }
        if `repeat` == "" {
            throw ValidationError(
                tr("--repeat needs daily, weekdays or days such as mon,wed,fri; leave it out for a one-off"))
        }
        try InputChecks.title(joinedTitle)
        try InputChecks.repeatRule(`repeat` ?? "")
    }

    func run() throws {
        let (session, clock) = (Session(), ClockStyle())
        let day = tomorrow ? "tomorrow" : "today"
        let rule = `repeat` ?? ""
        let (shown, copy, sent, note) = try session.run { client in
            let sent = try TimeInput.wallTime(time, client)
            let id = try client.addTask(title: joinedTitle, time: sent, day: day, repeat: rule)
            // The number the new task has on its day; a repeating task's template, and today's copy.
            guard rule.isEmpty else {
                let task = try client.listTasks(day: "").first { $0.templateID == id }
                let template: String = Handle.template(id)
                let note = try task.flatMap { try Self.note($0, sent, client, clock) }
                return (template, task.map { Handle.shown($0) }, sent, note)
            }
            let task = try client.listTasks(day: day == "today" ? "" : day).first { $0.id == id }
            let note = tomorrow ? nil : try task.flatMap { try Self.note($0, sent, client, clock) }
            return (task.map { Handle.shown($0, tomorrow: tomorrow) } ?? id, nil, sent, note)
        }
        let title = Titles.quoted(joinedTitle)
        // Sent as HH:MM, shown on the locale's clock (2:30 PM under en_US).
        let shownTime = clock.wall(sent)
        let added =
            switch (tomorrow, rule.isEmpty) {
            case (false, true): tr("Added %s: %s %s (today).", shown, shownTime, title)
            case (true, true): tr("Added %s: %s %s (tomorrow).", shown, shownTime, title)
            case (false, false): tr("Added %s: %s %s (today, repeating %s).", shown, shownTime, title, PetText.rule(rule))
            case (true, false): tr("Added %s: %s %s (tomorrow, repeating %s).", shown, shownTime, title, PetText.rule(rule))
            }
        Output.lines([added + (copy.map { " " + tr("Today's copy is %s.", $0) } ?? "")] + (note.map { [$0] } ?? []))
    }

    /// What a person should know about today's new task: a time the clocks skip today (a DST gap:
    /// the task has the time the daemon gave it), or one already past (due at once).
    static func note(_ task: TaskRecord, _ sent: String, _ client: PetClient, _ clock: ClockStyle) throws -> String? {
        let status = try client.status()
        if let real = status.daemonHHMM(at: task.scheduledAt), real != sent {
            return tr(
                "%s does not exist today (the clocks change then): the task is at %s.", clock.wall(sent),
                clock.wall(real))
        }
        guard !task.done, task.scheduledAt + 60 <= status.now else { return nil }
        return tr("%s has already passed today: the task is due now.", clock.wall(sent))
    }
}
