import ArgumentParser
import PetBus
import PetCore

/// `petctl edit ID [--title T] [--time HH:MM]`.
struct Edit: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "edit",
        abstract: "Change a task's or a template's title or time.",
        discussion: """
            A done task keeps its time; changing a time clears a snooze.
            Examples:
              petctl edit 14 --time 15:00
              petctl edit t-3 --title "Stretch and breathe"
            """)

    @Argument(help: ArgumentHelp(Handle.help)) var task: Handle

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
        let (id, echo) = try Session.run { client in
            let id = try task.resolve(client)
            try client.updateTask(
                id: id, title: title ?? "", time: try time.map { try TimeInput.wallTime($0, client) } ?? "")
            return (id, try TaskEcho.find(id, client))
        }
        Output.lines(["Updated \(TodayScreen.handle(id))\(echo.map { ": \($0.line)" } ?? "")."])
    }
}
