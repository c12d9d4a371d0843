import Glibc
import ArgumentParser
import PetBus
import PetCore

/// `petctl status`.
struct Status: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "status",
        abstract: tr("Show the daemon's version, data directory, days and any problems."),
        discussion: tr(
            """
            After a damaged state file was recovered, petctl today shows one line about it until \
            you acknowledge it with --ack; the recovery stays listed here.

            Example: petctl status --ack
            """))

    @Flag(
        help: ArgumentHelp(
            tr("Acknowledge the problems shown (AcknowledgeProblems): petctl today stops showing the recovery line.")))
    var ack = false

    func run() throws {
        let session = Session()
        let status = try session.run { client in
            if ack { try client.acknowledgeProblems() }
            return try client.status()
        }
        var rows = [
            (tr("data"), status.dataDirectory),
            (tr("open day"), status.openDay),
            (tr("last closed"), status.lastClosedDay.isEmpty ? tr("none yet") : status.lastClosedDay),
            (tr("changes"), "\(status.mutations)"),
        ]
        // A daemon under --now or --time-scale runs a clock of its own: say so, and where it is.
        let realNow = Instant(time(nil))
        if status.timeScale != 1 || (status.now != 0 && abs(status.now - realNow) > 120) {
            let at = LocalClock.iso(status.now)
            rows.append(
                (
                    tr("clock"),
                    status.timeScale == 1
                        ? tr("simulated: %s", at)
                        : tr("simulated: %s, %s times real time", at, Self.scale(status.timeScale))
                ))
        }
        rows += status.problems.isEmpty ? [(tr("problems"), tr("none"))] : status.problems.map { (tr("problem"), $0) }
        if !status.recovery.isEmpty {
            let when = LocalClock.iso(status.recoveryAt)
            let seen = status.problemsAcknowledged ? tr("acknowledged") : tr("not acknowledged: petctl status --ack")
            rows.append((tr("recovery"), tr("%s: %s Lost: %s. (%s)", when, status.recovery, status.recoveryLost, seen)))
        }
        // The labels in one column, as wide as the widest (11 in English).
        let width = rows.map { TextWidth.columns($0.0) }.max() ?? 0
        Output.lines(
            ["petprogressd \(status.version)"] + rows.map { "\(TextWidth.pad($0.0, to: max(11, width)))  \($0.1)" })
    }

    /// `60`, `0.5`: the scale as typed on the daemon's command line, its decimal separator the
    /// locale's (`0,5` in German and French).
    static func scale(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : LocalNumber.decimal(value)
    }
}
