import ArgumentParser
import PetBus
import PetCore

/// `petctl status`.
struct Status: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "status",
        abstract: "Show the daemon's version, data directory, days and any problems.",
        discussion: """
            After a damaged state file was recovered, petctl today shows one line about it until \
            you acknowledge it with --ack; the recovery stays listed here.

            Example: petctl status --ack
            """)

    @Flag(help: "Acknowledge the problems shown (AcknowledgeProblems): petctl today stops showing the recovery line.")
    var ack = false

    func run() throws {
        let status = try Session.run { client in
            if ack { try client.acknowledgeProblems() }
            return try client.status()
        }
        var lines = [
            "petprogressd \(status.version)",
            "data         \(status.dataDirectory)",
            "open day     \(status.openDay)",
            "last closed  \(status.lastClosedDay.isEmpty ? "none yet" : status.lastClosedDay)",
            "changes      \(status.mutations)",
        ]
        lines += status.problems.isEmpty ? ["problems     none"] : status.problems.map { "problem      \($0)" }
        if !status.recovery.isEmpty {
            let when = LocalClock.iso(status.recoveryAt)
            let seen = status.problemsAcknowledged ? "acknowledged" : "not acknowledged: petctl status --ack"
            lines.append("recovery     \(when): \(status.recovery) Lost: \(status.recoveryLost). (\(seen))")
        }
        Output.lines(lines)
    }
}
