import ArgumentParser
import PetBus
import PetCore

/// `petctl done [ID]`.
struct Done: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "done",
        abstract: tr("Mark a task done (no ID: the next task)."),
        discussion: tr(
            """
            On time (within the grace window of its time) earns 2 XP, early or late 1. When that \
            evolves the pet, a line says so; the panel's pet catches up at the top of the hour.
            Examples: petctl done    petctl done 3
            """))

    @Argument(help: ArgumentHelp(Handle.todayHelp), completion: HandleCompletion.today) var task: Handle?

    func run() throws {
        let (session, clock) = (Session(), ClockStyle())
        var before: PetView?
        var seen: (after: PetView, panelAt: Instant)?  // the next task's: read with the request
        let (shown, xp, title, pending) = try Handle.act(
            on: task, verb: "done", in: session,
            named: { client, id in
                before = try client.pet()
                return try client.markDone(id)
            },
            next: { client in
                let done = try client.markNextDoneSeen()
                (before, seen) = (done.before, (done.after, done.entry.nextDate))
                return (done.entry, done.id, done.xpDelta)
            })
        let (word, moment) = try session.run { client in
            (
                try Self.judgement(xp: xp, pending: pending) {
                    try client.listTasks(day: "").first { Handle.shown($0) == shown }?.judgement
                },
                try seen.map {
                    PetMoment.line(before: before ?? $0.after, after: $0.after, panelAt: $0.panelAt, clock: clock)
                }
                    ?? PetMoment.after(client, before: before, clock: clock)
            )
        }
        let judged = Self.judgement(word)
        Output.lines(
            [tr("Done: %s %s, +%d XP (%s).", shown, Titles.forLine(title, width: 60), xp, judged)]
                + (moment.map { [$0] } ?? []))
    }

    /// PetCore's word for the completion (`TaskRecord.judgement`), from the task as it was read
    /// just before it was marked (`pending`) where that settles it: 2 XP is on time; 1 XP is late
    /// once the task was due, early before, unless a snooze moved its due time away from its own.
    /// Otherwise the day's list says (`listed`): on a long day, reading it costs more than the rest
    /// of `petctl done` together (docs/BENCHMARKS.md, "petctl").
    static func judgement(xp: Int, pending: TaskRecord?, listed: () throws -> String?) rethrows -> String {
        // not translated: PetCore's judgement words, the keys `judgement` translates.
        if xp >= 2 { return "on time" }
        if let pending, !pending.done, pending.due || pending.snoozedUntil == 0 {
            return pending.due ? "late" : "early"
        }
        return try listed() ?? "late"  // not translated: PetCore's word
    }

    /// PetCore's judgement of a completion (`TaskRecord.judgement`) in the user's language.
    static func judgement(_ word: String) -> String {
        switch word {
        case "on time": trc("judgement", "on time")  // not translated: the key (the daemon's word)
        case "early": trc("judgement", "early")
        case "late": trc("judgement", "late")
        default: word
        }
    }
}

/// `petctl snooze [ID]`.
struct Snooze: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "snooze",
        abstract: tr("Snooze a task by the snooze length (no ID: the next task)."),
        discussion: tr(
            """
            A snooze moves the task later in today's order; on time is still judged against its own time.
            Examples: petctl snooze    petctl snooze 3
            """))

    @Argument(help: ArgumentHelp(Handle.todayHelp), completion: HandleCompletion.today) var task: Handle?

    func run() throws {
        let session = Session()
        let (shown, until, title, _) = try Handle.act(
            on: task, verb: "snooze", in: session, named: { try $0.snooze($1) },
            next: { client in
                let before = try client.widgetEntry()
                let (id, until) = try client.snoozeNext()
                return (before, id, until)
            })
        Output.lines([
            tr("Snoozed %s %s to %s.", shown, Titles.forLine(title, width: 60), ClockStyle().time(until))
        ])
    }
}

/// `petctl undo [ID]`.
struct Undo: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "undo",
        abstract: tr("Undo a completion of today (no ID: the most recent one)."),
        discussion:
            tr(
                "The pet becomes exactly what it would be without that completion.\nExamples: petctl undo    petctl undo 3"
            )
    )

    @Argument(help: ArgumentHelp(Handle.todayHelp), completion: HandleCompletion.today) var task: Handle?

    func run() throws {
        let (session, clock) = (Session(), ClockStyle())
        let (shown, title, moment) = try session.run { client in
            let before = try client.pet()
            if let task {
                let named = try task.todays(client, verb: "undo")
                try task.call(named) { try client.undo($0) }
                let moment = try PetMoment.after(client, before: before, clock: clock)
                return (named?.shown ?? task.typed, named?.record.title ?? "", moment)
            }
            let today = try client.listTasks(day: "")
            guard let last = today.filter(\.done).max(by: { $0.completedSeq < $1.completedSeq }) else {
                throw Session.refuse(tr("nothing to undo: no task is done today"))
            }
            try client.undo(last.id)
            return (Handle.shown(last), last.title, try PetMoment.after(client, before: before, clock: clock))
        }
        Output.lines(
            [tr("Undone: %s %s is pending again.", shown, Titles.forLine(title, width: 60))]
                + (moment.map { [$0] } ?? []))
    }
}
