/// What one bus-loss round of `LifecycleTests.busKilledUnderLoad` saw.
struct BusLossRound {
    var exitCode: Int32?
    /// From the bus's SIGKILL to the daemon's exit.
    var took: Duration
    /// The daemon's log lines beyond start-up.
    var lines: [String] = []
    var acknowledged = 0
    /// Changes the lost bus cut off that the store holds (whole).
    var applied = 0
    /// Lost or half-applied changes, strangers, a wrong mutation count.
    var problems: [String] = []

    var oneClearLine: Bool { lines.count == 1 && lines[0].contains("lost the bus") }

    var milliseconds: Double {
        Double(took.components.seconds) * 1000 + Double(took.components.attoseconds) / 1e15
    }

    static func markdown(_ rounds: [BusLossRound]) -> String {
        let times = rounds.map(\.milliseconds).sorted()
        let median = times.isEmpty ? 0 : times[times.count / 2]
        let count = rounds.count
        return """
            ## 3. Bus loss

            \(count) rounds: 4 clients write (add, done, undo) as fast as the daemon (\(ReliabilityRun.daemonBuild))
            acknowledges, the private `dbus-daemon` is SIGKILLed at a random moment 200–700 ms in, and a new
            bus and daemon start on the same data directory.

            | | result |
            | --- | --- |
            | exited with status 1 | \(rounds.filter { $0.exitCode == 1 }.count) of \(count) |
            | exit after the bus died | median \(ReliabilityRun.format(median)) ms, slowest \(ReliabilityRun.format(times.last ?? 0)) ms |
            | exactly one log line, `lost the bus (disconnected); exiting so that systemd can restart the daemon` | \(rounds.filter(\.oneClearLine).count) of \(count) |
            | acknowledged changes, all present on the new bus | \(rounds.map(\.acknowledged).reduce(0, +)); rounds with a lost or half-applied change: \(rounds.filter { !$0.problems.isEmpty }.count) |
            | changes the loss cut off, found applied whole | \(rounds.map(\.applied).reduce(0, +)) (the others not applied at all; `mutations` counted exactly these) |

            Found and fixed by this test: requests the daemon had already read when the bus died still
            ran and were saved, and each logged `cannot emit TasksChanged/PropertiesChanged: … Disconnected`
            before the one line about the loss; signals to a lost bus are now dropped silently.

            """
    }
}
