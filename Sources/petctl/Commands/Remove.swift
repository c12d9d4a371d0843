import ArgumentParser
import PetBus

/// `petctl rm ID`.
struct Remove: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rm",
        abstract: "Delete a task of today or tomorrow, or a template (stopping its future days).",
        discussion:
            "Deleting a template (t-N) keeps today's copy.\nExamples: petctl rm 3    petctl rm +1    petctl rm t-3")

    @Argument(help: ArgumentHelp(Handle.help), completion: HandleCompletion.any) var task: Handle

    func run() throws {
        let (said, echo) = try Session.run { client in
            guard case .template(let id) = task else {
                let named = try task.task(client)
                let echo = try task.call(named) { id in
                    let echo = try TaskEcho.find(id, client)
                    try client.deleteTask(id)
                    return echo
                }
                return ("Deleted \(named?.shown ?? task.typed)\(echo.map { ": \($0.line)" } ?? "").", echo)
            }
            let copy = try client.listTasks(day: "").first { $0.templateID == id }
            let echo = try TaskEcho.find(id, client)
            try task.call(nil) { try client.deleteTask($0) }
            // The open day's copy stays, as a one-off (petprogress(7) §3).
            return (
                "Deleted \(id)\(echo.map { " (\($0.line))" } ?? ""): no more copies from tomorrow on"
                    + (copy.map { "; today's copy \(Handle.shown($0)) stays." } ?? "."), echo
            )
        }
        Output.lines([said] + (echo.map { ["Bring it back: \($0.addCommand)"] } ?? []))
    }
}
