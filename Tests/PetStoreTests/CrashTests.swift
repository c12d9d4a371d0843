import Foundation
import Glibc
import PetCore
import PetStore
import TestSupport
import Testing

/// petprogress(7) §5 / §3.1 under SIGKILL: a child (`petstore-crashchild`) applies a long seeded sequence of
/// mutations and closeouts, printing `ack K MUTATIONS DIGEST` after each durable write; it is
/// killed at random moments. After every kill the store must open, hold every acknowledged write
/// (the next child checks the state is exactly the script's world at the last acknowledged write
/// or the one in flight, and that history holds exactly the closed days, each once), and never a
/// day twice. Set PETSTORE_CRASH_SEED to replay a run; PETSTORE_CRASH_KILLS to change the count.
@Suite struct CrashTests {
    @Test(.timeLimit(.minutes(3))) func acknowledgedWritesSurviveSIGKILL() throws {
        let child = try productBinary("petstore-crashchild", override: "PETSTORE_CRASHCHILD")
        let env = ProcessInfo.processInfo.environment
        let seed = env["PETSTORE_CRASH_SEED"].flatMap(UInt64.init) ?? UInt64.random(in: 1...UInt64.max / 2)
        let wantedKills = env["PETSTORE_CRASH_KILLS"].flatMap(Int.init) ?? 200
        var timing = SystemRandomNumberGenerator()
        print("crash test: seed \(seed) (PETSTORE_CRASH_SEED=\(seed) replays the script), \(wantedKills) kills")

        let dir = TempDir()
        let sandbox = try Sandbox("crash")  // the children's output files
        defer { sandbox.close() }
        var acked = -1
        var ackedMutations: UInt64 = 0
        var kills = 0
        var beforeReady = 0
        var checksAfterKill = 0
        var inFlightFound = 0
        var repairs = 0
        let started = Date()
        while kills < wantedKills {
            let c = try sandbox.spawn(
                child, ["run", dir.store, "\(seed)", "\(acked)", "100000000"], environment: Sandbox.baseEnvironment,
                label: "crashchild")
            // One run in five is killed at a random moment of start-up (load and repair);
            // the others once ready, a random moment into their writing.
            let early = Int.random(in: 0..<5, using: &timing) == 0
            if early {
                usleep(UInt32.random(in: 0...40_000, using: &timing))
            } else {
                let ready = c.waitForLine(timeout: .seconds(30)) {
                    $0.hasPrefix("ready") || $0.hasPrefix("FAIL") || $0.hasPrefix("ERROR")
                }
                if ready?.hasPrefix("ready") != true {
                    c.killNow()
                    Issue.record("child did not start: \(c.lines.suffix(3)) (seed \(seed))")
                    return
                }
                usleep(UInt32.random(in: 0...20_000, using: &timing))
            }
            let status = c.killNow()
            if let bad = c.lines.first(where: { $0.hasPrefix("FAIL") || $0.hasPrefix("ERROR") }) {
                Issue.record("after \(kills) kills: \(bad) (seed \(seed))")
                return
            }
            guard status == 128 + SIGKILL else {
                Issue.record("child ended on its own (status \(status)): \(c.lines.suffix(3))")
                return
            }
            kills += 1
            if let ready = c.lines.first(where: { $0.hasPrefix("ready") }) {
                if ready.split(separator: " ").dropFirst().first == Substring("\(acked + 1)") { inFlightFound += 1 }
            } else {
                beforeReady += 1
            }
            // `ready P M` and `ack K M DIGEST` both say write P/K (with M mutations) is durable.
            for line in c.lines where line.hasPrefix("ack ") || line.hasPrefix("ready ") {
                let parts = line.split(separator: " ")
                if parts.count >= 3, let k = Int(parts[1]), let m = UInt64(parts[2]), k >= acked {
                    acked = k
                    ackedMutations = m
                }
            }
            repairs += try checkInProcess(dir.store, acked: acked, mutations: ackedMutations)
            checksAfterKill += 1
        }
        // A last child verifies the final state exactly, writes nothing more, and exits 0.
        let last = try sandbox.spawn(
            child, ["run", dir.store, "\(seed)", "\(acked)", "\(acked)"], environment: Sandbox.baseEnvironment,
            label: "crashchild")
        let status = last.reap(blocking: true)
        #expect(status == 0, "final check: \(last.lines)")
        #expect(last.lines.last?.hasPrefix("done") == true, "final check: \(last.lines)")
        let elapsed = Date().timeIntervalSince(started)
        print(
            "crash test: \(kills) SIGKILLs (\(beforeReady) during start-up), \(acked + 1) acknowledged writes, "
                + "\(checksAfterKill) reopen checks, \(inFlightFound) unacknowledged in-flight writes found durable, "
                + "\(repairs) history repairs, \(String(format: "%.1f", elapsed)) s, seed \(seed)")
        #expect(kills >= wantedKills)
        #expect(acked >= wantedKills / 2, "too few writes were acknowledged to exercise the store")
    }

    /// The test's own check: the store opens, holds at least every acknowledged mutation, and no
    /// day is in history twice (days strictly increase).
    /// Returns how many history repairs the load made.
    func checkInProcess(_ dir: String, acked: Int, mutations: UInt64) throws -> Int {
        let store = try PetStore.open(directory: dir)
        defer { store.close() }
        let loaded = try store.load(now: Fixture.now)
        if acked >= 0 {
            guard case .state(let world) = loaded.start else {
                Issue.record("no state after \(acked) acknowledged writes")
                return 0
            }
            #expect(world.mutations >= mutations)
            if let last = store.lastHistoryDay { #expect(world.lastClosedDay.map { $0 >= last } == true) }
        }
        let days = try store.recentHistory(days: .max).map(\.day.key)
        #expect(zip(days, days.dropFirst()).allSatisfy { $0 < $1 }, "history holds a day twice or out of order")
        #expect(loaded.quarantinedTo == nil)
        return loaded.problems.filter { $0.contains("history file") }.count
    }
}
