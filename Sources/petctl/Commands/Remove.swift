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
        let said = try Session.run { client in
            guard case .template(let id) = task else {
                let named = try task.task(client)
                try task.call(named) { try client.deleteTask($0) }
                return "Deleted \(named?.shown ?? task.typed)."
            }
            let copy = try client.listTasks(day: "").first { $0.templateID == id }
            try task.call(nil) { try client.deleteTask($0) }
            // The open day's copy stays, as a one-off (petprogress(7) §3).
            return "Deleted \(id): no more copies from tomorrow on"
                + (copy.map { "; today's copy \(Handle.shown($0)) stays." } ?? ".")
        }
        Output.lines([said])
    }
}
