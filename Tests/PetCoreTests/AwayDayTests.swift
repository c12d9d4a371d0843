import PetCore
import PropertyBased
import Testing

/// Away and return days (petprogress(7) §3.1, "Away days"): a day is judged the same whether the
/// daemon ran across it or caught it up later. Each plan starts on Monday 2026-03-02 (UTC) with
/// five templates (recurring instances do not touch a day) and lists, day by day, what the user
/// did; the table says how each day with tasks closed and what it cost.
@Suite struct AwayDayTests {
    /// What the user does on one day.
    enum Act: Hashable {
        /// Marks the first `n` of the day's tasks done, on time (+2 each).
        case done(Int)
        /// Snoozes the day's next task (a touch that earns nothing).
        case snooze
        /// Adds a task for the next day.
        case addTomorrow
        /// Marks the next day as a rest day and unmarks it again (it stays an ordinary day).
        case markAndUnmarkTomorrow
        /// Renames the first template (which also renames the open day's instance).
        case editTemplate
        /// Deletes the last template.
        case deleteTemplate
    }

    /// How a day with tasks closed: judged, away, return or rest, and its `xp_change`.
    struct Closed: Hashable, CustomStringConvertible {
        let kind: String
        let xp: Int
        var description: String { "\(kind) \(xp)" }
    }

    static func judged(_ xp: Int) -> Closed { Closed(kind: "judged", xp: xp) }
    static func away() -> Closed { Closed(kind: "away", xp: 0) }
    static func returned(_ xp: Int) -> Closed { Closed(kind: "return", xp: xp) }

    struct Plan: CustomTestStringConvertible, Sendable {
        let name: String
        let repeatRule: String
        /// Day by day from Monday; the last entry's day is the one still open at the end.
        let days: [[Act]]
        /// For each closed day with tasks, in order.
        let closed: [Closed]
        var testDescription: String { name }
    }

    // 5 of 5 on time: +10, daily +3. None of 5: 5 misses −10, daily −3.
    static let plans: [Plan] = [
        Plan(
            name: "one skipped day is charged", repeatRule: "daily",
            days: [[.done(5)], [], [.done(5)], []],
            closed: [judged(13), judged(-13), returned(10)]),
        Plan(
            name: "a week away costs its first day only", repeatRule: "daily",
            days: [[.done(5)], [], [], [], [], [], [], [], [.done(1)], []],
            closed: [judged(13), judged(-13), away(), away(), away(), away(), away(), away(), returned(2)]),
        Plan(
            name: "the return day never loses", repeatRule: "daily",
            days: [[.done(5)], [], [], [.snooze], [], [], [.done(2)], []],
            closed: [judged(13), judged(-13), away(), returned(0), judged(-13), away(), returned(4)]),
        Plan(
            name: "a weekend without tasks between two touched days changes nothing", repeatRule: "weekdays",
            days: [[.done(5)], [.done(5)], [.done(5)], [.done(5)], [.done(5)], [], [], [.done(1)], []],
            closed: Array(repeating: judged(13), count: 5) + [judged(2 - 8 - 3)]),
        Plan(
            name: "a weekend without tasks after an untouched Friday is passed over", repeatRule: "weekdays",
            days: [[.done(5)], [.done(5)], [.done(5)], [.done(5)], [], [], [], [], []],
            closed: Array(repeating: judged(13), count: 4) + [judged(-13), away()]),
        Plan(
            name: "a task added in advance touches its day", repeatRule: "daily",
            days: [[.done(5)], [.addTomorrow], [], []],
            closed: [judged(13), judged(-13), returned(0)]),
        Plan(
            name: "a rest mark and unmark touch their day", repeatRule: "daily",
            days: [[.done(5)], [.markAndUnmarkTomorrow], [], []],
            closed: [judged(13), judged(-13), returned(0)]),
        Plan(
            name: "template edits and deletions do not touch", repeatRule: "daily",
            days: [[.done(5)], [], [.editTemplate], [.deleteTemplate], []],
            closed: [judged(13), judged(-13), away(), away()]),
    ]

    @Test(arguments: plans) func runningAndStoppedAgree(plan: Plan) throws {
        let running = try Self.live(plan, running: true)
        let stopped = try Self.live(plan, running: false)
        #expect(Self.closed(running.records) == plan.closed, "running")
        #expect(Self.closed(stopped.records) == plan.closed, "stopped and restarted")
        #expect(running.pet == stopped.pet)
    }

    /// The records carry the day's kind (away and return are never both, nor with a daily result).
    @Test func awayAndReturnRecordsSkipTheDailyResult() throws {
        let (records, _) = try Self.live(Self.plans[1], running: false)
        for r in records where r.away || r.returned {
            #expect(!(r.away && r.returned) && r.resultXP == 0 && !r.rest)
        }
    }

    /// On every day, one task done out of five is never worse than none: the day's closing pet
    /// with one done is at least the one with none, whatever came before (generated plans).
    @Test func oneDoneIsNeverWorseThanNone() async {
        await propertyCheck(count: 60, input: Gen.uint64(), Gen.int(in: 1...12)) { seed, length in
            var rng = SplitMix64(seed: seed)
            let days: [[Act]] =
                [[.done(5)]]
                + (0..<length).map { _ in
                    rng.unit() < 0.5 ? [] : [.done(Int(rng.next() % 6))]
                }
            for i in days.indices where days[i].isEmpty {
                var withOne = days
                withOne[i] = [.done(1)]
                let none = Plan(name: "", repeatRule: "daily", days: days + [[]], closed: [])
                let one = Plan(name: "", repeatRule: "daily", days: withOne + [[]], closed: [])
                guard let a = try? Self.live(none, running: false), let b = try? Self.live(one, running: false) else {
                    Issue.record("plan failed: \(days)")
                    return
                }
                let (p, q) = (a.records[i].petAtClose, b.records[i].petAtClose)
                #expect((q.stageIndex, q.stageXP) >= (p.stageIndex, p.stageXP), "seed \(seed), day \(i): \(days)")
            }
        }
    }

    static func closed(_ records: [DayRecord]) -> [Closed] {
        records.filter { $0.total > 0 }.map { r in
            let kind = r.away ? "away" : r.returned ? "return" : r.rest ? "rest" : "judged"
            return Closed(kind: kind, xp: r.xpChange)
        }
    }

    /// Lives a plan: with the daemon `running` across every day (the world caught up at 09:00
    /// each day), or run only on the days the user acts and at the end.
    static func live(_ plan: Plan, running: Bool) throws -> (records: [DayRecord], pet: PetState) {
        var ctx = Context(now: at("2026-03-02T08:00:00Z"), zone: .utc)
        var w = PetWorld(now: ctx.now, zone: .utc)
        w.openingPet = PetState(stageIndex: 3, stageXP: 10)
        for n in 0..<5 { try w.addTask(title: "t\(n)", time: "1\(n):00", repeat: plan.repeatRule, ctx) }
        var records: [DayRecord] = []
        for (i, acts) in plan.days.enumerated() {
            ctx.now = at("2026-03-02T09:00:00Z") + Int64(i) * 86_400
            if running || !acts.isEmpty { records += w.closeDueDays(ctx).compactMap(\.record) }
            for act in acts { try perform(act, on: &w, &ctx) }
        }
        records += w.closeDueDays(ctx).compactMap(\.record)
        return (records, w.livePet(.builtIn))
    }

    static func perform(_ act: Act, on w: inout PetWorld, _ ctx: inout Context) throws {
        switch act {
        case .done(let n):
            for task in w.tasks.inDayOrder().prefix(n) {
                ctx.now = task.scheduled
                try w.markDone(id: task.id, ctx)
            }
        case .snooze: _ = try w.snoozeNext(ctx)
        case .addTomorrow: try w.addTask(title: "ahead", time: "23:00", day: "tomorrow", ctx)
        case .markAndUnmarkTomorrow:
            try w.setRest(from: "tomorrow", to: "tomorrow", rest: true, ctx)
            try w.setRest(from: "tomorrow", to: "tomorrow", rest: false, ctx)
        case .editTemplate: try w.updateTask(id: w.templates[0].id, title: "renamed", time: "", ctx)
        case .deleteTemplate: try w.deleteTask(id: w.templates[w.templates.count - 1].id)
        }
    }
}
