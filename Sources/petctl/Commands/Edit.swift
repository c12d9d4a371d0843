import ArgumentParser
import PetBus
import PetCore

/// `petctl edit ID [--title T] [--time HH:MM]`.
struct Edit: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "edit",
        abstract: "Change a task's or a template's title or time.",
        discussion: """
            A done task keeps its time; changing a time clears a snooze. Editing a repeating \
            task's template (t-N) also changes today's copy, unless that is done or was edited on its own.
            Examples:
              petctl edit 3 --time 15:00
              petctl edit +1 --title Dentist
              petctl edit t-3 --title "Stretch and breathe"
            """)

    @Argument(help: ArgumentHelp(Handle.help), completion: HandleCompletion.any) var task: Handle

    @Option(help: "The new title.") var title: String?

    @Option(help: ArgumentHelp("The new time: \(TimeInput.help)")) var time: String?

    func validate() throws {
        guard title != nil || time != nil else { throw ValidationError("give --title, --time or both") }
        if let time { _ = try TimeInput.validated(time) }
        do throws(PetError) {
            if let title { _ = try TaskTitle.validate(title) }
        } catch {
            throw ValidationError(error.message)
        }
    }

    func run() throws {
        let said = try Session.run { client in
            let sent = try time.map { try TimeInput.wallTime($0, client) } ?? ""
            guard case .template(let id) = task else {
                let named = try task.task(client)
                let id = try task.call(named) { id in
                    try client.updateTask(id: id, title: title ?? "", time: sent)
                    return id
                }
                let echo = try TaskEcho.find(id, client).map { ": \($0.line)" } ?? ""
                return "Updated \(named?.shown ?? task.typed)\(echo)."
            }
            // Today's copy follows the template unless it is done or was edited on its own
            // (petprogress(7) §3): say which.
            let copy = try client.listTasks(day: "").first { $0.templateID == id }
            try task.call(nil) { try client.updateTask(id: $0, title: title ?? "", time: sent) }
            let echo = try TaskEcho.find(id, client).map { ": \($0.line)" } ?? ""
            guard let copy else { return "Updated \(id)\(echo)." }
            let after = try client.listTasks(day: "").first { $0.id == copy.id }
            let shown = Handle.shown(copy)
            guard let after, after.title != copy.title || after.time != copy.time else {
                return
                    "Updated \(id)\(echo) from tomorrow on; today's copy \(shown) stays as it is (done or edited on its own)."
            }
            return "Updated \(id)\(echo), and today's copy \(shown) with it."
        }
        Output.lines([said])
    }
}
