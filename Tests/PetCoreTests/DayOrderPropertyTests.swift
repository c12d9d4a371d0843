import PetCore
import PropertyBased
import Testing

/// The day order and the pets computed without moving tasks (docs/BENCHMARKS.md, "The per-message
/// refresh and the entry build") against the plain definitions they replace: a stable sort of the
/// tasks themselves, the entry's parts read from that sorted day, the awards replayed from the
/// sorted tasks, and the snapshot rule with both pets computed up front.
@Suite struct DayOrderPropertyTests {
    static let table = StageTable.builtIn
    static let start = at("2026-03-02T00:00:00Z")

    /// A day of up to 40 tasks from one integer each: a scheduled minute and an order from small
    /// ranges (so effective instants and orders tie often), maybe a snooze, maybe done.
    static let dayGen = Gen.int(in: 0...(30 * 8 * 4 * 3 - 1)).array(of: 0...40).map { codes in
        codes.enumerated().map { i, code in task(i, code) }
    }

    static func task(_ i: Int, _ code: Int) -> TaskItem {
        let minute = code % 30
        let order = UInt64(code / 30 % 8)
        let snooze = code / 240 % 4
        let state = code / 960
        var t = TaskItem(
            id: "20260302-\(i + 1)", title: "t\(i)", time: wall("00:00"), dayKey: key("2026-03-02"),
            scheduled: start + Int64(minute) * 60, order: order)
        if snooze > 0 { t.snoozedUntil = start + Int64(minute + 10 * snooze) * 60 }
        if state == 2 {
            t.completedAt = start + Int64(minute) * 60
            // Completion order not creation order; ties too (an order shared by two tasks).
            t.completedSeq = UInt64(code % 7 + 1)
            t.xp = code % 2 + 1
        }
        return t
    }

    /// The definition: the tasks themselves in a stable sort by (effective, order).
    static func reference(_ tasks: [TaskItem]) -> [TaskItem] {
        tasks.sorted { ($0.effective, $0.order) < ($1.effective, $1.order) }
    }

    @Test func dayOrderIsTheStableSortOfTheTasks() async {
        await propertyCheck(count: 500, input: Self.dayGen) { tasks in
            let ordered = Self.reference(tasks)
            #expect(tasks.inDayOrder() == ordered)
            let pending = ordered.filter { !$0.isDone }
            for count in 0...4 {
                #expect(tasks.pendingInDayOrder(first: count) == Array(pending.prefix(count)))
            }
            #expect(tasks.nextTask() == pending.first)
        }
    }

    /// The entry's task part equals the one read from the fully sorted day.
    @Test func entryTaskPartIsReadFromTheSortedDay() async {
        let ctx = Context(now: Self.start + 15 * 60, zone: zone("UTC"), stages: Self.table)
        let rule = DueRule(graceMinutes: 60, dayEnd: Self.start + 86_400)
        await propertyCheck(count: 300, input: Self.dayGen) { tasks in
            let entry = WidgetEntry(
                date: Self.start, nextDate: Self.start + 3600, pet: .hatchling, dayKey: key("2026-03-02"),
                tasks: tasks, restDay: false, at: ctx.now, rule: rule, zone: ctx.zone, stages: Self.table,
                iconPath: { _ in "" })
            let pending = Self.reference(tasks).filter { !$0.isDone }
            #expect(entry.tasksTotal == tasks.count)
            #expect(entry.tasksDone == tasks.count - pending.count)
            #expect(entry.nextTaskID == (pending.first?.id ?? ""))
            #expect(entry.nextTaskOverdue == (pending.first.map { rule.isOverdue($0, at: ctx.now) } ?? false))
            #expect(entry.nextTaskDue == (pending.first.map { rule.isDue($0, at: ctx.now) } ?? false))
            #expect(entry.upcoming.map(\.id) == pending.prefix(3).map(\.id))
            #expect(entry.upcoming.map(\.overdue) == pending.prefix(3).map { rule.isOverdue($0, at: ctx.now) })
            #expect(entry.upcoming.map(\.due) == pending.prefix(3).map { rule.isDue($0, at: ctx.now) })
        }
    }

    /// The live pet replays the awards in completion order, as a stable sort of the done tasks has them.
    @Test func livePetReplaysTheSortedAwards() async {
        await propertyCheck(count: 300, input: Gen.int(in: 0...19), Self.dayGen) { stage, tasks in
            var (w, _) = monday()
            w.openingPet = PetState(stageIndex: stage, stageXP: 0)
            w.tasks = tasks
            let awards = tasks.filter(\.isDone).sorted { $0.completedSeq < $1.completedSeq }
            let expected = Engine.apply(
                awards.map { .completion(xp: $0.xp) }, to: w.openingPet, table: Self.table)
            #expect(w.livePet(Self.table) == expected)
        }
    }

    /// The snapshot rule asks for the pets only when it stores a snapshot, and then only for the one it
    /// shows: a refresh within a tick replays nothing.
    @Test func snapshotRuleComputesPetsOnlyWhenDue() {
        let utc = zone("UTC")
        let now = at("2026-03-02T10:30:00Z")
        var asked = 0
        func pet(_ p: PetState) -> PetState {
            asked += 1
            return p
        }
        let stored = VisibleSnapshot(tick: at("2026-03-02T10:00:00Z"), pet: .hatchling)
        let frog = PetState(stageIndex: 2, stageXP: 3)
        #expect(
            SnapshotRule.due(
                stored: stored, now: now, zone: utc, closeouts: [], petBeforeCloseouts: pet(.hatchling),
                livePet: pet(frog)) == nil)
        #expect(asked == 0)
        let later = SnapshotRule.due(
            stored: stored, now: now + 3600, zone: utc, closeouts: [], petBeforeCloseouts: pet(.hatchling),
            livePet: pet(frog))
        #expect(later == VisibleSnapshot(tick: at("2026-03-02T11:00:00Z"), pet: frog))
        #expect(asked == 1)
    }

    /// `catchUp` with the pets computed lazily does what it did with both computed first, through a
    /// day of completions, undos, ticks, a clock set back, a closeout and a zone change.
    @Test func catchUpMatchesTheEagerRule() throws {
        var (w, ctx) = monday("08:00")
        _ = w.catchUp(ctx, startingUp: true)
        let ids = try (0..<6).map { try w.addTask(title: "t\($0)", time: "0\($0 + 3):30", ctx) }
        // (when, then: done / undo of a task, or nothing)
        let steps: [(String, done: Int?, undo: Int?)] = [
            ("2026-03-02T08:10", 0, nil),
            ("2026-03-02T08:20", nil, nil),
            ("2026-03-02T09:05", 5, nil),
            ("2026-03-02T09:06", nil, 0),
            ("2026-03-02T08:59", 1, nil),  // the clock set back across a tick
            ("2026-03-02T10:00", nil, nil),
            ("2026-03-02T23:59", 2, nil),
            ("2026-03-03T02:10", nil, nil),  // a closeout and ticks
        ]
        for (time, done, undo) in steps {
            ctx.now = at(time + ":00Z")
            var eager = w
            let expected = Self.eagerCatchUp(&eager, ctx)
            let caught = w.catchUp(ctx)
            #expect(Self.parts(caught) == expected, "at \(time)")
            #expect(w == eager, "at \(time)")
            if let done { _ = try w.markDone(id: ids[done], ctx) }
            if let undo { try w.undo(id: ids[undo]) }
        }
        ctx.zone = zone("Asia/Kathmandu")
        var eager = w
        #expect(Self.parts(w.catchUp(ctx)) == Self.eagerCatchUp(&eager, ctx))
        #expect(w == eager)
    }

    /// `catchUp` as it was: both pets computed before anything else.
    typealias Parts = (closeouts: [Closeout], snapshotChanged: Bool, emit: Bool, nextWake: Instant)

    static func parts(_ c: CatchUp) -> Parts { (c.closeouts, c.snapshotChanged, c.emitEntryChanged, c.nextWake) }

    static func eagerCatchUp(_ w: inout PetWorld, _ ctx: Context) -> Parts {
        let petBefore = w.livePet(ctx.stages)
        let closeouts = w.closeDueDays(ctx)
        let crossed = SnapshotRule.tickCrossed(stored: w.snapshot, now: ctx.now, zone: ctx.zone)
        let live = w.livePet(ctx.stages)
        let new = SnapshotRule.due(
            stored: w.snapshot, now: ctx.now, zone: ctx.zone, closeouts: closeouts, petBeforeCloseouts: petBefore,
            livePet: live)
        if let new { w.snapshot = new }
        let nextTick = SnapshotRule.nextDue(stored: w.snapshot, now: ctx.now, zone: ctx.zone)
        return (closeouts, new != nil, crossed, min(nextTick, w.openDay.end))
    }
}
