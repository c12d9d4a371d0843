import PetCore
import PetSync
import Testing

/// The figures of docs/SYNC.md §11: a heavy user's year on two machines — its operations, the
/// folder's size, and what folding and merging them costs. `make test` runs a month (and checks
/// only that the figures are sane); `PETPROGRESS_RELIABILITY=full` a year, and prints:
///
///     PETPROGRESS_RELIABILITY=full swift test --skip-build --filter PetSyncTests.SyncFigures
@Suite struct SyncFigures {
    static let days = SyncRun.isFull ? 365 : 30

    @Test func aHeavyUsersYear() throws {
        let (ops, end, machines) = try Self.heavyUser(days: Self.days)
        let bytes = ops.reduce(0) { $0 + $1.line.utf8.count }
        let perDevice = Dictionary(grouping: ops, by: \.device).mapValues { $0.reduce(0) { $0 + $1.line.utf8.count } }

        // A new machine folds everything from the folder.
        let clock = ContinuousClock()
        var fresh = Replica(device: "new", zone: berlin)
        let scratch = clock.measure { fresh.receive(ops) }
        // A machine holding all but the desktop's last offline week, which then arrives at once.
        let weekStart = end - 7 * dayLength
        let week = ops.filter { $0.device == "desktop" && $0.at >= weekStart }
        let weekIDs = Set(week.map(\.id))
        var laptop = Replica(device: "laptop", zone: berlin)
        laptop.receive(ops.filter { !weekIDs.contains($0.id) })
        let refoldedBefore = laptop.refolded
        let weekMerge = clock.measure { laptop.receive(week) }
        let weekRefolded = laptop.refolded - refoldedBefore
        // One completion made offline a week ago arriving late.
        var one = Replica(device: "laptop", zone: berlin)
        let late = try #require(week.first)
        one.receive(ops.filter { $0.id != late.id })
        let before = one.refolded
        let lateMerge = clock.measure { one.receive([late]) }
        let lateRefolded = one.refolded - before
        // What a device pays to show the state at a moment within the open day (the snapshot rule on
        // a copy of the tip; a read that closes a day also copies the history, once).
        let show = clock.measure { for k in 0..<100 { _ = fresh.state(at: end - 8 * hour + Instant(k) * 60) } }

        // Compaction (docs/SYNC.md §9) at the Monday at least 60 days back (14 at the fast size):
        // both machines report the cut, then one compacts; what its log keeps is the folder's size.
        let margin = Instant(SyncRun.isFull ? 60 : 14) * dayLength
        var day = (end - margin) / dayLength
        day -= (day + 3) % 7  // 1970-01-01 was a Thursday
        let cut = day * dayLength
        var pair = machines
        var reports: [Operation] = []
        for i in pair.indices { reports.append(try pair[i].make(try #require(pair[i].report(cut: cut)), now: end)) }
        for i in pair.indices { pair[i].receive(reports) }
        var compacted = false
        let compaction = clock.measure { compacted = pair[0].compact(cut: cut) }
        #expect(compacted)
        let kept = pair[0].log.reduce(0) { $0 + $1.line.utf8.count }
        #expect(pair[0].state(at: end).canonicalBytes == pair[1].state(at: end).canonicalBytes)

        #expect(fresh.state(at: end).canonicalBytes == laptop.state(at: end).canonicalBytes)
        #expect(laptop.state(at: end).canonicalBytes == one.state(at: end).canonicalBytes)
        #expect(fresh.tip.refused.count < ops.count / 50, "a normal life is nearly all accepted")

        func millis(_ d: Duration) -> Double {
            Double(d.components.seconds) * 1000 + Double(d.components.attoseconds) / 1e15
        }
        func f2(_ v: Double) -> String {
            let c = Int((v * 100).rounded())
            return "\(c / 100).\(c % 100 < 10 ? "0" : "")\(c % 100)"
        }
        func ms(_ d: Duration) -> String { f2(millis(d)) + " ms" }
        func per1000(_ d: Duration, _ n: Int) -> String { f2(millis(d) * 1000 / Double(max(n, 1))) + " ms" }
        print(
            """
            sync figures: \(Self.days) days, 2 machines, \(ops.count) operations \
            (\(ops.count / Self.days) a day), \(fresh.state(at: end).history.count) closed days
            sync figures: folder \(bytes) bytes (\(bytes / max(ops.count, 1)) bytes an operation); \
            \(perDevice.sorted { $0.key < $1.key }.map { "ops-\($0.key).log \($0.value)" }.joined(separator: ", "))
            sync figures: fold from scratch \(ms(scratch)) = \(per1000(scratch, ops.count)) per 1,000 operations
            sync figures: an offline week (\(week.count) operations) merged: \(ms(weekMerge)), \
            \(weekRefolded) operations folded again = \(per1000(weekMerge, weekRefolded)) per 1,000
            sync figures: one operation a week late: \(ms(lateMerge)), \(lateRefolded) folded again
            sync figures: the state at a moment: \(per1000(show, 100)) per 1,000 reads
            sync figures: compaction at \(margin / dayLength)+ days back: \(ms(compaction)), \
            \(pair[0].snapshot?.count ?? 0) operations folded into the snapshot, logs keep \(pair[0].log.count) \
            operations, \(kept) bytes
            """)
    }

    /// A heavy user on two machines, alternating by the hour: three habits, twelve one-offs a day,
    /// most done (on time or not), snoozes, an undo, edits, a rest day a month.
    static func heavyUser(days: Int) throws -> ([Operation], end: Instant, machines: [Replica]) {
        var rng = SplitMix64(seed: 2026)
        var machines = [Replica(device: "laptop", zone: berlin), Replica(device: "desktop", zone: berlin)]
        var ops: [Operation] = []
        let start = at("2026-01-05T06:00:00Z")
        func make(_ m: Int, _ change: Change, _ now: Instant) {
            guard let op = try? machines[m].make(change, now: now) else { return }
            ops.append(op)
            machines[1 - m].receive([op])
        }
        let first = CivilDate(parsing: "2026-01-05")!
        for (n, rule) in ["daily", "weekdays", "mon,thu"].enumerated() {
            make(0, .add(title: "habit \(n)", time: "0\(7 + n):30", day: first, repeatRule: rule), start)
        }
        for d in 0..<days {
            let morning = start + Instant(d) * dayLength
            let m = d % 2
            guard let w = machines[m].state(at: morning).world else { continue }
            if d % 30 == 17 {
                make(m, .rest(from: w.nextDay(zone: berlin).key, to: w.nextDay(zone: berlin).key, on: true), morning)
            }
            for k in 0..<12 {
                let h = 9 + k
                make(
                    m,
                    .add(
                        title: "task \(d)-\(k) with a title of usual length", time: "\(h):\(k % 2 == 0 ? "00" : "30")",
                        day: w.openDay.key, repeatRule: ""), morning + Instant(k))
            }
            // Through the day, hour by hour, on either machine.
            for h in 1..<15 {
                let now = morning + Instant(h) * hour
                let m = rng.below(2)
                let s = machines[m].state(at: now)
                guard let w = s.world else { continue }
                let due = w.tasks.filter { !$0.isDone && $0.scheduled <= now + hour }
                for task in due where rng.chance(0.85) {
                    if let r = s.ref(ofLocal: task.id) { make(m, .done(task: r), now) }
                }
                if let task = w.tasks.first(where: { !$0.isDone }), rng.chance(0.2), let r = s.ref(ofLocal: task.id) {
                    make(m, .snooze(task: r), now + 1)
                }
                if let task = w.tasks.first(where: \.isDone), rng.chance(0.05), let r = s.ref(ofLocal: task.id) {
                    make(m, .undo(task: r), now + 2)
                }
                if let task = w.tasks.last, rng.chance(0.08), let r = s.ref(ofLocal: task.id) {
                    make(m, .edit(task: r, title: "edited \(h)", time: ""), now + 3)
                }
            }
        }
        return (ops, start + Instant(days) * dayLength, machines)
    }
}
