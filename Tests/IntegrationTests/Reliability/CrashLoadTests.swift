import DBusKit
import Foundation
import PetCore
import TestSupport
import Testing

extension Reliability {
    /// Crashes during load (docs/RELIABILITY.md §2): the daemon SIGKILLed at seeded random moments
    /// under the load of 16 clients, and restarted each time. The clients reconcile every call
    /// whose reply a kill swallowed.
    @Suite("crashes under load")
    struct CrashLoadTests {
        @Test(
            "SIGKILL under load, again and again: every acknowledged change survives, nothing half-applied, no quarantine"
        )
        func killedUnderLoad() async throws {
            let world = try await World("crash")
            defer { world.close() }
            let kills = ReliabilityRun.size(fast: 50, full: 1000)
            var daemon = try await world.daemon(now: PetLoad.now)
            let names = try Connection(address: world.bus.address)
            defer { names.close() }
            let stopFile = world.sandbox.path("stop")
            let load = try PetLoad.start(
                world, ["crash", "--clients", "16", "--seed", "21", "--stop-file", stopFile])
            var random = SplitMix64(seed: 2020)
            var lives: [Spawned] = [daemon.process]
            let started = ContinuousClock.now
            for _ in 0..<kills {
                // Under load: at a random moment of up to 300 ms after the daemon took its name.
                try await Task.sleep(for: .milliseconds(Int.random(in: 0...300, using: &random)))
                daemon.process.send(SIGKILL)
                _ = await daemon.process.waitExit(timeout: .seconds(10))
                // The bus drops a dead owner's name when it reads the end of its socket, a moment
                // after the exit; a daemon started before that finds the name taken and exits 1.
                _ = await poll { try !names.nameHasOwner(PetDaemon.name) }
                guard load.isRunning else { break }
                daemon = try await world.daemon(now: PetLoad.now)
                lives.append(daemon.process)
            }
            let killing = ContinuousClock.now - started
            // Some load on the last life too, then the clients stop and check the whole store.
            try await Task.sleep(for: .milliseconds(500))
            _ = FileManager.default.createFile(atPath: stopFile, contents: Data())
            let report = try await PetLoad.report(load, timeout: .seconds(300))
            #expect(report["ok"] as? Bool == true, "\(report.failures.joined(separator: "\n"))")
            #expect(lives.count == kills + 1, "the load client stopped early: \(load.errors)")
            let files = try FileManager.default.contentsOfDirectory(atPath: daemon.dataDirectory)
            #expect(!files.contains { $0.contains("corrupt") }, "a quarantine: \(files)")
            let strange = lives.flatMap { DaemonLog.unexpectedLines($0.errors) }
            #expect(strange.isEmpty, "the daemon said more than that it started: \(strange.prefix(5))")
            try ReliabilityRun.fragment(
                "20-crash", Self.markdown(report, kills: lives.count - 1, seconds: killing, files: files, said: strange)
            )
        }

        static func markdown(
            _ report: [String: Any], kills: Int, seconds: Duration, files: [String], said: [String]
        ) -> String {
            let quarantined = files.filter { $0.contains("corrupt") }
            func f(_ value: Double, _ digits: Int = 1) -> String { ReliabilityRun.format(value, digits) }
            return """
                ## 2. Crashes during load

                The same 16 clients (without property sets, whose effect one client cannot check) run while
                the daemon (\(ReliabilityRun.daemonBuild)) is SIGKILLed at a seeded random moment 0–300 ms after it
                took its bus name, then restarted on the same data directory: **\(kills) kills** in \(f(Double(seconds.components.seconds))) s.
                A call whose reply a kill swallowed is reconciled: once a daemon answers again, the client's
                tasks must be exactly the state before the call or the predicted state after it.

                | | result |
                | --- | --- |
                | calls answered or reconciled | \(Int(report.number("calls"))) (\(Int(report.number("transportErrors"))) cut off by a kill) |
                | cut-off changes found applied (whole) | \(Int(report.number("final", "appliedUnacknowledged"))); the others found not applied at all |
                | half-applied, or acknowledged and lost | \(Int(report.number("failureCount"))) |
                | tasks at the end / done | \(Int(report.number("final", "tasks"))) / \(Int(report.number("final", "tasksDone"))), each as the oracle predicts |
                | live pet = oracle's replay | stage \(Int(report.number("final", "pet", "stage"))), \(Int(report.number("final", "pet", "xp"))) XP |
                | `GetStatus` `mutations` = acknowledged + applied cut-off changes | \(Int(report.number("final", "mutations"))) = \(Int(report.number("final", "acknowledged"))) + \(Int(report.number("final", "appliedUnacknowledged"))) |
                | quarantine files (`state.json.corrupt-*`) | \(quarantined.count); the data directory holds \(files.sorted().joined(separator: ", ")) |
                | daemon log lines beyond start-up (repairs, quarantines, failed saves) | \(said.count)\(said.isEmpty ? "" : ": " + said.prefix(3).joined(separator: "; ")) |

                """
        }
    }
}
