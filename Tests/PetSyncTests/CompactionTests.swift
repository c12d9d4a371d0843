import PetCore
import PetSync
import PropertyBased
import Testing

/// Compaction (docs/SYNC.md §9): a cut is taken only when every device has said, in a `seen`, that
/// it holds the same operations from before it. Then the set is whole — nothing made before the
/// cut can still arrive — and folding from the snapshot gives the same state as folding everything.
@Suite struct CompactionTests {
    static let runs = SyncRun.isFull ? 200 : 30
    static let steps = SyncRun.isFull ? 500 : 150

    /// Every second UTC midnight at least a day before `now`: the cut a device proposes (the
    /// design's is 60 days back; a day here, so that deliveries are still under way across it).
    static func proposedCut(_ now: Instant) -> Instant { (now - dayLength) / (2 * dayLength) * (2 * dayLength) }

    static func fingerprint(_ ops: some Sequence<PetSync.Operation>) -> (Int, UInt64) {
        ops.reduce((0, 0)) { ($0.0 + 1, $0.1 &+ $1.digest) }
    }

    /// Devices that know each other (each one's first operation reached the others at set-up),
    /// deliveries delayed by minutes or days, duplicated and reordered, clocks ±10 minutes apart,
    /// `seen` reports now and then, and each device compacting (or not) whenever its cut is stable:
    /// what a device found stable is exactly every operation ever made before the cut; no
    /// operation is too late; compacted or not, every device and every device started from a
    /// snapshot holds the same state, byte for byte.
    @Test func aStableCutIsWholeAndCompactionChangesNothing() async {
        await propertyCheck(
            count: Self.runs, input: Gen.int(in: 0...Int(Int32.max)), Gen.int(in: 1...4),
            Gen.int(in: -600...600).array(of: 4)
        ) { seed, devices, skews in
            var rng = SplitMix64(seed: UInt64(seed))
            var replicas = (0..<devices).map { Replica(device: "dev-\($0)", zone: berlin) }
            var made: [PetSync.Operation] = []
            var inflight: [(due: Instant, to: Int, op: PetSync.Operation)] = []
            var agreed: [(cut: Instant, count: Int, digest: UInt64)] = []
            var t = at("2026-03-27T06:00:00Z") + Instant(rng.below(4 * 24)) * hour
            for r in 0..<devices {
                guard let op = try? replicas[r].make(.wake, now: t + Instant(skews[r])) else { continue }
                made.append(op)
                for o in 0..<devices where o != r { replicas[o].receive([op]) }
            }
            for _ in 0..<Self.steps {
                t += Instant(rng.below(rng.chance(0.05) ? 2 * 24 * 60 : 150)) * minute
                var due = inflight.filter { $0.due <= t }
                inflight.removeAll { $0.due <= t }
                rng.shuffle(&due)
                for d in due { replicas[d.to].receive([d.op]) }
                let r = rng.below(devices)
                let now = t + Instant(skews[r])
                let change =
                    rng.chance(0.2)
                    ? (replicas[r].report(cut: Self.proposedCut(now)) ?? .wake)
                    : randomChange(replicas[r].state(at: now), now: now, zone: berlin, rng: &rng)
                if let op = try? replicas[r].make(change, now: now) {
                    made.append(op)
                    for other in 0..<devices where other != r {
                        let delay =
                            rng.chance(0.1) ? Instant(rng.below(4 * 24)) * hour : Instant(rng.below(30)) * minute
                        inflight.append((t + delay, other, op))
                        if rng.chance(0.1) { inflight.append((t + delay + Instant(rng.below(600)), other, op)) }
                    }
                }
                for i in replicas.indices {
                    let cut = Self.proposedCut(t + Instant(skews[i]))
                    guard replicas[i].isStable(cut: cut), let s = replicas[i].summary(before: cut) else { continue }
                    agreed.append((cut, s.count, s.digest))
                    if rng.chance(0.5) {
                        let compacted = replicas[i].compact(cut: cut)
                        #expect(compacted)
                    }
                }
            }
            rng.shuffle(&inflight)
            for d in inflight { replicas[d.to].receive([d.op]) }
            for i in replicas.indices {
                var all = made
                rng.shuffle(&all)
                replicas[i].receive(all)
            }
            // Everything delivered, every device reports a cut after all of it: it is stable on every
            // device, which compacts everything into its snapshot.
            let last = (t + dayLength) / (2 * dayLength) * (2 * dayLength) + 2 * dayLength
            var reports: [PetSync.Operation] = []
            for i in replicas.indices {
                guard let report = replicas[i].report(cut: last),
                    let op = try? replicas[i].make(report, now: last + hour + Instant(skews[i]))
                else { continue }
                reports.append(op)
            }
            made += reports
            for i in replicas.indices {
                replicas[i].receive(reports)
                #expect(replicas[i].isStable(cut: last), "seed \(seed): \(replicas[i].device) cannot compact")
                agreed.append((last, replicas[i].summary(before: last)?.count ?? -1, 0))
                agreed[agreed.count - 1].digest = replicas[i].summary(before: last)?.digest ?? 0
                if rng.chance(0.5) { replicas[i].compact(cut: last) }
            }
            let end = last + dayLength
            for a in agreed {
                let whole = Self.fingerprint(made.filter { $0.clock.wall < a.cut })
                #expect(whole == (a.count, a.digest), "seed \(seed): a cut was taken with an operation still to come")
            }
            var scratch = Replica(device: "scratch", zone: berlin)
            scratch.receive(made)
            let reference = scratch.state(at: end).canonicalBytes
            for r in replicas {
                #expect(r.tooLate.isEmpty, "seed \(seed): \(r.device) refused \(r.tooLate.count) as too late")
                #expect(r.state(at: end).canonicalBytes == reference, "seed \(seed): \(r.device) diverged")
                guard let snapshot = r.snapshot else { continue }
                var fresh = Replica(device: "new", zone: berlin, snapshot: snapshot)
                var all = made
                rng.shuffle(&all)
                fresh.receive(all)
                #expect(fresh.tooLate.isEmpty)
                #expect(fresh.state(at: end).canonicalBytes == reference, "seed \(seed): from \(r.device)'s snapshot")
            }
        }
    }

    /// The one case the rule cannot cover, and what it does then: a device set up and gone offline
    /// before any of its operations reached the others. The two that know each other agree on a
    /// cut and compact; the third's operation from before the cut arrives after it: listed as too
    /// late, it changes nothing, and the two still agree.
    @Test func anUnknownDevicesOperationBeforeTheCutIsTooLate() throws {
        var a = Replica(device: "laptop", zone: berlin)
        var b = Replica(device: "desktop", zone: berlin)
        var c = Replica(device: "tablet", zone: berlin)
        let t0 = at("2026-03-02T07:00:00Z")
        let monday = try #require(CivilDate(parsing: "2026-03-02"))
        let add = try a.make(.add(title: "run", time: "08:00", day: monday, repeatRule: "daily"), now: t0)
        b.receive([add])
        a.receive([try b.make(.wake, now: t0 + 30)])
        let offline = try c.make(.wake, now: t0 + 60)  // never delivered before the cut
        let cut = at("2026-03-04T00:00:00Z")
        #expect(!a.isStable(cut: cut), "no device has reported yet")
        let later = at("2026-03-06T09:00:00Z")
        let ra = try a.make(try #require(a.report(cut: cut)), now: later)
        #expect(!a.isStable(cut: cut), "the desktop, known by its wake, has not reported")
        let rb = try b.make(try #require(b.report(cut: cut)), now: later + 60)
        a.receive([rb])
        b.receive([ra])
        #expect(a.isStable(cut: cut) && b.isStable(cut: cut))
        let before = a.state(at: later + hour).canonicalBytes
        let compacted = a.compact(cut: cut)
        #expect(compacted)
        #expect(a.cut == cut && a.log.allSatisfy { $0.clock.wall >= cut })
        #expect(a.state(at: later + hour).canonicalBytes == before, "compaction changes no state")
        #expect(b.snapshot == nil, "only the compacted device has a snapshot")
        a.receive([offline, add])  // the add is held (folded into the snapshot): not too late
        #expect(a.tooLate == [offline.id])
        #expect(a.state(at: later + hour).canonicalBytes == before)
        // The desktop, not compacted, folds it in its place: here the two would differ, which is why
        // the margin is 60 days and `GetStatus` lists what came too late.
        b.receive([offline])
        #expect(b.tooLate.isEmpty)
        // A device set up from the laptop's snapshot folds to the laptop's state.
        var fresh = Replica(device: "new", zone: berlin, snapshot: try #require(a.snapshot))
        fresh.receive(a.log)
        #expect(fresh.state(at: later + hour).canonicalBytes == before)
        // A `seen` line reads back as itself.
        let (ops, skipped) = SyncFolder.read(Array(ra.line.utf8))
        #expect(skipped == 0 && ops == [ra])
    }
}
