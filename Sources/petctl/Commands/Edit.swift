import ArgumentParser
import PetBus
import PetCore

/// `petctl edit ID [--title T] [--time HH:MM]`.
struct Edit: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "edit",
        abstract: tr("Change a task's or a template's title or time."),
        discussion: tr(
            """
            A done task keeps its time; changing a time clears a snooze. Editing a repeating \
            task (rN) also changes today's copy, unless that is done or was edited on its own.
            Examples:
              petctl edit 3 --time 15:00
              petctl edit +1 --title Dentist
              petctl edit r3 --title "Stretch and breathe"
            """))

    @Argument(help: ArgumentHelp(Handle.help), completion: HandleCompletion.any) var task: Handle

    @Option(help: ArgumentHelp(tr("The new title."))) var title: String?

    @Option(help: ArgumentHelp(tr("The new time: %s", TimeInput.help))) var time: String?

    func validate() throws {
        guard title != nil || time != nil else { throw ValidationError(tr("give --title, --time or both")) }
        if let time, case .later = try TimeInput.validated(time), case .tomorrow = task {
            throw ValidationError(
                tr("%s counts from now; for tomorrow give a clock time such as 9:30 or 9:30am", quoted(time)))
        }
        if let title { try InputChecks.title(title) }
    }

    func run() throws {
        let (session, clock) = (Session(), ClockStyle())
        let said = try session.run { client in
            guard case .template(let id) = task else {
                let named = try task.task(client)
                // A task id of tomorrow's: "+20m" counts from now, which is today.
                if let time, let named, named.shown.hasPrefix("+"), case .later = try TimeInput.validated(time) {
                    throw Session.refuse(
                        tr("%s counts from now; for tomorrow give a clock time such as 9:30 or 9:30am", quoted(time)))
                }
                let sent = try time.map { try TimeInput.wallTime($0, client) } ?? ""
                let id = try task.call(named) { id in
                    try client.updateTask(id: id, title: title ?? "", time: sent)
                    return id
                }
                let shown = named?.shown ?? task.typed
                return try TaskEcho.find(id, client).map { tr("Updated %s: %s.", shown, $0.line(clock)) }
                    ?? tr("Updated %s.", shown)
            }
            // Today's copy follows the template unless it is done or was edited on its own
            // (petprogress(7) §3): say which.
            let sent = try time.map { try TimeInput.wallTime($0, client) } ?? ""
            let copy = try client.listTasks(day: "").first { $0.templateID == id }
            try task.call(nil) { try client.updateTask(id: $0, title: title ?? "", time: sent) }
            let echo = try TaskEcho.find(id, client)?.line(clock)
            guard let copy else { return echo.map { tr("Updated %s: %s.", task.typed, $0) } ?? tr("Updated %s.", task.typed) }
            let after = try client.listTasks(day: "").first { $0.id == copy.id }
            let shown = Handle.shown(copy)
            guard let after, after.title != copy.title || after.time != copy.time else {
                return echo.map {
                    tr(
                        "Updated %s: %s from tomorrow on; today's copy %s stays as it is (done or edited on its own).",
                        task.typed, $0, shown)
                }
                    ?? tr(
                        "Updated %s from tomorrow on; today's copy %s stays as it is (done or edited on its own).", task.typed,
                        shown)
            }
            return echo.map { tr("Updated %s: %s, and today's copy %s with it.", task.typed, $0, shown) }
                ?? tr("Updated %s, and today's copy %s with it.", task.typed, shown)
        }
        Output.lines([said])
    }
}
