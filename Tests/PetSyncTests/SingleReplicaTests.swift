import PetCore
import PetSync
import PropertyBased
import Testing

/// One device alone is exactly today's rules: every change made through the model gives the same
/// world, the same answers (accepted or refused) and the same history records as PetCore driven
/// directly, as the daemon drives it (catch up, then the change).
@Suite struct SingleReplicaTests {
    static let runs = SyncRun.isFull ? 200 : 40
    static let steps = SyncRun.isFull ? 600 : 200

    /// Generated lives: adds, done, undo, snooze, edits, deletions, rest marks, every setting, days
    /// skipped (catch-up), DST, and the clock stepping back a few minutes or more than an hour.
    @Test func oneDeviceIsTodaysRules() async {
        await propertyCheck(count: Self.runs, input: Gen.int(in: 0...Int(Int32.max))) { seed in
            var rng = SplitMix64(seed: UInt64(seed))
            var t = at("2026-03-26T06:00:00Z") + Instant(rng.below(72)) * hour
            var replica = Replica(device: "solo", zone: berlin)
            var direct = PetWorld(now: t, zone: berlin)
            var display = Display()
            var records: [DayRecord] = []
            do {
                try replica.make(.wake, now: t)
                records += direct.catchUp(Context(now: t, zone: berlin)).closeouts.compactMap(\.record)
            } catch {
                Issue.record("the first wake was refused: \(error)")
                return
            }
            for _ in 0..<Self.steps {
                if rng.chance(0.05) {
                    t -= Instant(rng.chance(0.5) ? rng.below(10) * 60 : 2 * 3600)  // the clock steps back
                } else {
                    t += Instant(rng.below(rng.chance(0.05) ? 3 * 24 * 60 : 120)) * minute
                }
                // The daemon's first run in a day writes a wake; every run catches up.
                if replica.wakeDue(at: t) { _ = try? replica.make(.wake, now: t) }
                let view = replica.state(at: t)
                let change = randomChange(view, now: t, zone: berlin, rng: &rng)
                let ctx = Context(now: t, zone: berlin)
                records += direct.catchUp(ctx).closeouts.compactMap(\.record)
                var shown = view.world
                shown?.snapshot = display.show(view)
                #expect(shown == direct, "seed \(seed): the model's view is PetCore's world")
                let directAnswer = Self.apply(change, to: &direct, view, ctx)
                let modelAnswer: PetError?
                do throws(PetError) {
                    try replica.make(change, now: t)
                    modelAnswer = nil
                } catch {
                    modelAnswer = error
                }
                #expect(modelAnswer == directAnswer, "seed \(seed): \(change)")
            }
            t += 2 * dayLength
            records += direct.catchUp(Context(now: t, zone: berlin)).closeouts.compactMap(\.record)
            let final = replica.state(at: t)
            var shown = final.world
            shown?.snapshot = display.show(final)
            #expect(shown == direct)
            #expect(final.history == records)
            #expect(final.refused.isEmpty, "a device writes only what its rules accepted")
        }
    }

    /// The change as the daemon makes it today: PetCore's function with the world's own ids.
    static func apply(_ change: Change, to w: inout PetWorld, _ view: SyncState, _ ctx: Context) -> PetError? {
        func id(_ r: TaskRef) throws(PetError) -> String {
            guard let local = view.localID[r] else { throw PetError(.notFound, "unknown \(r)") }
            return local
        }
        do throws(PetError) {
            switch change {
            case .wake, .seen, .forget, .unknown: break
            case .add(let title, let time, let day, let rule):
                let name = day == w.openDay.key ? "today" : "tomorrow"
                try w.addTask(title: title, time: time, day: name, repeat: rule, ctx)
            case .edit(let r, let title, let time): try w.updateTask(id: id(r), title: title, time: time, ctx)
            case .delete(let r): try w.deleteTask(id: id(r))
            case .done(let r): try w.markDone(id: id(r), ctx)
            case .undo(let r): try w.undo(id: id(r))
            case .snooze(let r): try w.snooze(id: id(r), ctx)
            case .rest(let from, let to, let on):
                try w.setRest(from: from.description, to: to.description, rest: on, ctx)
            case .resetTime(let text): try w.setResetTime(text)
            case .grace(let n): try w.setGraceMinutes(n)
            case .snoozeLength(let n): try w.setSnoozeMinutes(n)
            case .rollover(let on): w.setRollover(on)
            }
            return nil
        } catch {
            return error
        }
    }

    /// PetCoreTests' closeout case through the model: (1,1) is not reachable from a new pet, so
    /// the same day from a tadpole — three tasks, one done on time, two missed, rate 1/3.
    @Test func aDayClosesOnceWithMissesDailyResultAndRecord() throws {
        var r = Replica(device: "solo", zone: .utc)
        let monday = CivilDate(parsing: "2026-03-02")!
        let t = at("2026-03-02T08:00:00Z")
        let a = try r.make(.add(title: "a", time: "08:00", day: monday, repeatRule: ""), now: t)
        try r.make(.add(title: "b", time: "09:00", day: monday, repeatRule: ""), now: t)
        try r.make(.add(title: "c", time: "10:00", day: monday, repeatRule: ""), now: t)
        try r.make(.done(task: "o:\(a.id)"), now: t)
        #expect(r.state(at: at("2026-03-02T23:59:59Z")).history.isEmpty, "not before the day ends")
        let s = r.state(at: at("2026-03-03T00:00:00Z"))
        let record = try #require(s.history.first)
        #expect(s.history.count == 1)
        #expect((record.done, record.total) == (1, 3))
        // (0,0) +2 → (0,2); two misses → (0,0) floored; rate 1/3 < 0.4: −3 → (0,0).
        #expect(record.petAtClose == PetState(stageIndex: 0, stageXP: 0))
        #expect(record.xpChange == 2 - 2 - 2 - 3)
        #expect(record.closedAt == at("2026-03-03T00:00:00Z"))
        #expect(s.world?.lastClosedDay == monday && s.world?.tasks.isEmpty == true)
        // Exactly once: later in the same day nothing more closes.
        #expect(r.state(at: at("2026-03-03T18:00:00Z")).history == s.history)
    }

    /// PetCoreTests' away-day plans (AwayDayTests) through the model, by their `xp_change` and
    /// kind: five daily templates; a plan lists, day by day, how many are done on time.
    @Test(arguments: [
        ([5, 0, 5, 0], ["judged 13", "judged -13", "return 10"]),
        (
            [5, 0, 0, 0, 0, 0, 0, 0, 1, 0],
            ["judged 13", "judged -13", "away 0", "away 0", "away 0", "away 0", "away 0", "away 0", "return 2"]
        ),
    ])
    func awayDayPlans(done: [Int], closed: [String]) throws {
        var r = Replica(device: "solo", zone: .utc)
        let t0 = at("2026-03-02T08:00:00Z")
        let monday = CivilDate(parsing: "2026-03-02")!
        for n in 0..<5 {
            try r.make(.add(title: "t\(n)", time: "1\(n):00", day: monday, repeatRule: "daily"), now: t0)
        }
        for (i, count) in done.enumerated() where count > 0 {
            let morning = at("2026-03-02T09:00:00Z") + Instant(i) * dayLength
            let s = r.state(at: morning)
            for task in (s.world?.tasks ?? []).inDayOrder().prefix(count) {
                try r.make(.done(task: try #require(s.ref(ofLocal: task.id))), now: task.scheduled)
            }
        }
        let end = at("2026-03-02T09:00:00Z") + Instant(done.count - 1) * dayLength
        let kinds = r.state(at: end).history.filter { $0.total > 0 }.map { d in
            (d.away ? "away" : d.returned ? "return" : d.rest ? "rest" : "judged") + " \(d.xpChange)"
        }
        #expect(kinds == closed)
    }

    /// PetCoreTests' rest-day rows (RestDayTests) that a new pet can reach, through the model: the
    /// day's tasks (`2` on time, `1` two hours late, `0` not done), marked a rest day or not after
    /// the completions; the record's and the pet's figures are RestDayTests' own.
    @Test(arguments: [
        (false, [2, 2, 1, 2, 0], 8, 3, PetState(stageIndex: 0, stageXP: 8)),
        (true, [2, 2, 1, 2, 0], 7, 0, PetState(stageIndex: 0, stageXP: 7)),
    ])
    func restDayRows(rest: Bool, tasks: [Int], xpChange: Int, resultXP: Int, after: PetState) throws {
        var r = Replica(device: "solo", zone: .utc)
        let monday = try #require(CivilDate(parsing: "2026-03-02"))
        let midnight = at("2026-03-02T00:00:00Z")
        var refs: [TaskRef] = []
        for n in tasks.indices {
            let op = try r.make(.add(title: "task \(n)", time: "0\(n):00", day: monday, repeatRule: ""), now: midnight)
            refs.append("o:\(op.id)")
        }
        let dones = tasks.indices.filter { tasks[$0] > 0 }.map { n in
            (midnight + Instant(n) * hour + (tasks[n] == 2 ? 0 : 2 * hour), refs[n])
        }
        for (when, ref) in dones.sorted(by: { $0.0 < $1.0 }) { try r.make(.done(task: ref), now: when) }
        if rest { try r.make(.rest(from: monday, to: monday, on: true), now: at("2026-03-02T07:00:00Z")) }
        let s = r.state(at: at("2026-03-03T00:00:00Z"))
        let record = try #require(s.history.first)
        #expect(record.rest == rest)
        #expect(record.xpChange == xpChange)
        #expect(record.resultXP == resultXP)
        #expect(record.tasks.map(\.xp) == tasks)
        #expect(record.petAtClose == after)
        #expect(s.world?.livePet(.builtIn) == after)
    }
}
