import PetCore
import PetSync
import PropertyBased
import Testing

/// Any number of devices, any interleaving, deliveries duplicated, delayed and reordered, clocks
/// ±10 minutes apart: every device that holds the same operations holds the same state, byte for
/// byte — the pet, every task, every history record, every derived id (docs/SYNC.md §3).
@Suite struct ConvergenceTests {
    /// Fast sizes in `make test`; `PETPROGRESS_RELIABILITY=full` (make reliability) runs the long ones.
    static let full = SyncRun.isFull
    static let runs = full ? 200 : 40
    static let steps = full ? 400 : 120

    @Test func devicesThatHoldTheSameOperationsHoldTheSameState() async {
        await propertyCheck(
            count: Self.runs, input: Gen.int(in: 0...Int(Int32.max)), Gen.int(in: 1...5),
            Gen.int(in: -600...600).array(of: 5)
        ) { seed, devices, skews in
            let run = Network.run(seed: UInt64(seed), devices: devices, skews: skews, steps: Self.steps)
            let reference = run.replicas[0].state(at: run.end).canonicalBytes
            for r in run.replicas {
                #expect(r.log.count == run.made.count, "device \(r.device) lost an operation")
                #expect(r.state(at: run.end).canonicalBytes == reference, "device \(r.device) diverged (seed \(seed))")
            }
            // One device that took in everything at once, in reverse order, folds to the same.
            var late = Replica(device: "late", zone: berlin)
            late.receive(run.made.reversed())
            #expect(late.state(at: run.end).canonicalBytes == reference)
            // Every task the devices show has a derived identity.
            let world = run.replicas[0].state(at: run.end)
            for task in (world.world?.tasks ?? []) + (world.world?.tomorrow ?? []) {
                #expect(world.ref(ofLocal: task.id) != nil, "task \(task.id) has no identity")
            }
        }
    }

    /// The merge's rewinds agree with a fold from scratch at every step, not only at the end: a
    /// fresh replica fed one device's log in random pieces and order has that device's fold.
    @Test func theIncrementalMergeEqualsTheFoldFromScratch() async {
        await propertyCheck(count: Self.runs / 2, input: Gen.int(in: 0...Int(Int32.max)), Gen.int(in: 2...4)) {
            seed, devices in
            let run = Network.run(
                seed: UInt64(seed), devices: devices, skews: [0, 600, -600, 300], steps: Self.steps, settle: false)
            var rng = SplitMix64(seed: UInt64(seed) ^ 0x5eed)
            for r in run.replicas {
                var pieces = r.log
                rng.shuffle(&pieces)
                var fresh = Replica(device: "fresh", zone: berlin)
                while !pieces.isEmpty {
                    let n = 1 + rng.below(40)
                    fresh.receive(pieces.prefix(n))
                    fresh.receive(pieces.prefix(rng.below(n + 1)))  // some again
                    pieces.removeFirst(min(n, pieces.count))
                }
                #expect(fresh.tip.canonicalBytes == r.tip.canonicalBytes, "seed \(seed), device \(r.device)")
            }
        }
    }

    /// Two devices both complete the same task while apart: it counts once (the later completion
    /// is refused when folded, as a double click is), and both show the same pet.
    @Test func oneTaskDoneOnTwoDevicesCountsOnce() throws {
        var a = Replica(device: "laptop", zone: berlin)
        var b = Replica(device: "desktop", zone: berlin)
        let t0 = at("2026-03-02T07:00:00Z")
        let add = try a.make(
            .add(title: "write report", time: "09:00", day: CivilDate(parsing: "2026-03-02")!, repeatRule: ""),
            now: t0)
        b.receive([add])
        let ref = "o:\(add.id)"
        let doneA = try a.make(.done(task: ref), now: t0 + 2 * hour)
        let doneB = try b.make(.done(task: ref), now: t0 + 2 * hour + 30)
        a.receive([doneB])
        b.receive([doneA])
        let end = t0 + 3 * dayLength
        #expect(a.state(at: end).canonicalBytes == b.state(at: end).canonicalBytes)
        #expect(a.tip.refused == [doneB.id])
        #expect(
            a.state(at: end).history.first?.petAtClose
                == Engine.apply([.doneOnTime, .dailyResult(done: 1, total: 1)], to: .hatchling, table: .builtIn))
    }

    /// A completion made offline on Tuesday and seen on Thursday counts on Tuesday: Tuesday's
    /// record is judged again with it, and the pet after it follows (docs/SYNC.md §4).
    @Test func aLateCompletionIsJudgedOnItsOwnDay() throws {
        var a = Replica(device: "laptop", zone: berlin)
        var b = Replica(device: "desktop", zone: berlin)
        let monday = at("2026-03-02T07:00:00Z")
        let tuesday = CivilDate(parsing: "2026-03-03")!
        let add = try b.make(.add(title: "run", time: "08:00", day: tuesday, repeatRule: ""), now: monday)
        a.receive([add])
        // Tuesday 08:10 CET on the laptop, offline.
        let done = try a.make(.done(task: "o:\(add.id)"), now: at("2026-03-03T07:10:00Z"))
        let thursday = at("2026-03-05T10:00:00Z")
        let before = b.state(at: thursday)
        #expect(before.history.first { $0.day.key == tuesday }?.done == 0)
        b.receive([done])
        let after = b.state(at: thursday)
        let record = try #require(after.history.first { $0.day.key == tuesday })
        #expect(record.done == 1 && record.xpChange == 2 + 3)
        #expect(after.canonicalBytes == a.state(at: thursday).canonicalBytes)
    }

    /// A newer version's operation (a kind this one does not know) stops the fold before it on
    /// this device: it lags, it never guesses; the operation is kept and passed on.
    @Test func anUnknownKindStopsTheFoldAndIsKept() throws {
        var a = Replica(device: "old", zone: berlin)
        let t0 = at("2026-03-02T07:00:00Z")
        try a.make(.wake, now: t0)
        let line = "1\tnew\t1\t\(t0 + 60).0\t\(t0 + 60)\tpostpone\to:x\n"
        let (ops, skipped) = SyncFolder.read(Array(line.utf8))
        #expect(skipped == 0 && ops.count == 1)
        a.receive(ops)
        #expect(a.tip.blockedAt == ops[0].id)
        #expect(throws: PetError.self) {
            try a.make(.grace(30), now: t0 + 120)
        }
        #expect(a.state(at: t0 + 180).world?.settings.graceMinutes == 60, "nothing after it is folded")
        #expect(a.log.contains { $0.id == ops[0].id })
    }
}

/// Devices exchanging operations over an unreliable network (in memory): each delivery delayed
/// (mostly minutes, sometimes days), some duplicated, any order; then everything delivered.
struct Network {
    var replicas: [Replica]
    var made: [Operation] = []
    var end: Instant

    static func run(seed: UInt64, devices: Int, skews: [Int], steps: Int, settle: Bool = true) -> Network {
        var rng = SplitMix64(seed: seed)
        var net = Network(
            replicas: (0..<devices).map { Replica(device: "dev-\($0)", zone: berlin) }, end: 0)
        var inflight: [(due: Instant, to: Int, op: Operation)] = []
        var t = at("2026-03-27T06:00:00Z") + Instant(rng.below(4 * 24)) * hour  // DST on 03-29
        for step in 0..<steps {
            t += Instant(rng.below(rng.chance(0.05) ? 2 * 24 * 60 : 150)) * minute
            var due = inflight.filter { $0.due <= t }
            inflight.removeAll { $0.due <= t }
            rng.shuffle(&due)
            for d in due { net.replicas[d.to].receive([d.op]) }
            let r = step < devices ? step : rng.below(devices)
            let now = t + Instant(skews[r % skews.count])
            let change =
                step < devices ? .wake : randomChange(net.replicas[r].state(at: now), now: now, zone: berlin, rng: &rng)
            guard let op = try? net.replicas[r].make(change, now: now) else { continue }
            net.made.append(op)
            for other in 0..<devices where other != r {
                let delay = rng.chance(0.1) ? Instant(rng.below(4 * 24)) * hour : Instant(rng.below(30)) * minute
                inflight.append((t + delay, other, op))
                if rng.chance(0.1) { inflight.append((t + delay + Instant(rng.below(600)), other, op)) }
            }
        }
        net.end = t + dayLength
        if settle {
            rng.shuffle(&inflight)
            for d in inflight { net.replicas[d.to].receive([d.op]) }
            for i in net.replicas.indices {
                var all = net.made
                rng.shuffle(&all)
                net.replicas[i].receive(all)
            }
        }
        return net
    }
}
