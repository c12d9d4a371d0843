import ArgumentParser
import PetBus

/// `petctl status`.
struct Status: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "status",
        abstract: "Show the daemon's version, data directory, days and any problems.",
        discussion: "Example: petctl status")

    func run() throws {
        let status = try Session.run { client in try client.status() }
        var lines = [
            "petprogressd \(status.version)",
            "data         \(status.dataDirectory)",
            "open day     \(status.openDay)",
            "last closed  \(status.lastClosedDay.isEmpty ? "none yet" : status.lastClosedDay)",
            "changes      \(status.mutations)",
        ]
        lines += status.problems.isEmpty ? ["problems     none"] : status.problems.map { "problem      \($0)" }
        Output.lines(lines)
    }
}
