import DBusKit
import Foundation
import PetCore
import TestSupport
import Testing

extension Reliability {
    /// A lost bus under four writers (petprogress(7) §5; docs/RELIABILITY.md, "3. Bus loss"). It runs
    /// with the reliability suites, one at a time: beside the other integration suites, the exit
    /// took 5.98 s and 6.49 s in two CI runs (20 ms median alone), most likely a write's fsync
    /// waiting on a journal commit full of the other suites' data.
    @Suite("bus loss")
    struct BusLossTests {
        @Test(
            "the bus killed under load: the daemon exits 1 promptly with one clear line, loses nothing, and serves the same state on a new bus"
        )
        func busKilledUnderLoad() async throws {
            var rounds: [BusLossRound] = []
            for seed in 0..<ReliabilityRun.size(fast: 3, full: 20) {
                let round = try await Self.loseTheBus(seed: UInt64(seed))
                #expect(round.exitCode == 1, "exit status \(round.exitCode.map(String.init) ?? "none")")
                #expect(round.took < .seconds(5), "the daemon took \(round.took) to notice the lost bus")
                #expect(round.oneClearLine, "one clear line: \(round.lines)")
                #expect(round.problems.isEmpty, "\(round.problems)")
                #expect(round.acknowledged > 0, "the writers wrote nothing before the bus went")
                rounds.append(round)
            }
            try ReliabilityRun.fragment("30-bus-loss", BusLossRound.markdown(rounds))
        }

        /// One round of `busKilledUnderLoad`: 4 writers, the bus SIGKILLed under them, the daemon's
        /// exit, then the same data directory on a new bus checked against what the writers know.
        static func loseTheBus(seed: UInt64) async throws -> BusLossRound {
            let world = try await World("busload")
            defer { world.close() }
            let daemon = try await world.daemon(now: LifecycleTests.morning)
            let writers = try (0..<4).map { BusLossWriter(client: try world.client(), index: $0) }
            for writer in writers { writer.start() }
            var random = SplitMix64(seed: seed)
            try await Task.sleep(for: .milliseconds(Int.random(in: 200...700, using: &random)))
            world.bus.process.send(SIGKILL)
            let killed = ContinuousClock.now
            let code = await daemon.process.waitExit(timeout: .seconds(15))
            var round = BusLossRound(exitCode: code, took: ContinuousClock.now - killed)
            try await offPool { for writer in writers { writer.wait() } }
            round.lines = DaemonLog.unexpectedLines(daemon.process.errors)

            // The same data directory on a new bus: everything acknowledged is there.
            let bus = try await PrivateBus(in: world.sandbox)
            let again = try await World(sandbox: world.sandbox, bus: bus).daemon(
                dataDirectory: daemon.dataDirectory, now: LifecycleTests.morning)
            let client = try RawClient(bus: bus)
            let records = try client.tasks()
            var applied = 0
            for writer in writers {
                let (problem, cutApplied) = writer.check(records)
                if let problem { round.problems.append(problem) }
                if cutApplied { applied += 1 }
            }
            let strangers = records.filter { record in
                !writers.contains { record.string("title")?.hasPrefix($0.prefix) == true }
            }
            if !strangers.isEmpty { round.problems.append("tasks nobody added: \(strangers)") }
            round.acknowledged = writers.map(\.acknowledged).reduce(0, +)
            round.applied = applied
            let mutations = try client.status().int("mutations") ?? -1
            if mutations != Int64(round.acknowledged + applied) {
                round.problems.append("mutations \(mutations), expected \(round.acknowledged) + \(applied)")
            }
            if await again.stop() != 0 { round.problems.append("the daemon on the new bus did not stop cleanly") }
            return round
        }
    }
}
