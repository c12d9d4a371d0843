import ArgumentParser
import PetBus

/// `petctl rm ID`.
struct Remove: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rm",
        abstract: "Delete a task of today or tomorrow, or a template (stopping its future days).",
        discussion: "Examples: petctl rm 14    petctl rm t-3")

    @Argument(help: ArgumentHelp(Handle.help)) var task: Handle

    func run() throws {
        let (id, echo) = try Session.run { client in
            let id = try task.resolve(client)
            let echo = try TaskEcho.find(id, client)
            try client.deleteTask(id)
            return (id, echo)
        }
        guard let echo else { return Output.lines(["Deleted \(TodayScreen.handle(id))."]) }
        Output.lines(["Deleted \(TodayScreen.handle(id)): \(echo.line).", "Bring it back: \(echo.addCommand)"])
    }
}
