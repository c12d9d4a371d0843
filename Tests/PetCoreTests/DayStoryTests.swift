import PetCore
import Testing

/// `petctl log`'s account of a closed day: the events from the record's tasks in the rules'
/// order, replayed from the opening pet, checked against the record (petprogress(7) §2.1, §3.1, §3.1.1).
@Suite struct DayStoryTests {
    /// Monday in UTC from Frog 11: Email (08:00) done late at 12:00, Report (12:30) done on time
    /// at 12:31 — completed in that order, though Report comes later in the day — Walk (18:00)
    /// and Bills (19:00) left undone; `rest` marks the day first.
    func closedMonday(rest: Bool, stages: StageTable = .builtIn) throws -> HistoryRecord {
        var (w, ctx) = monday("07:00")
        w.openingPet = PetState(stageIndex: 2, stageXP: 11)
        let email = try w.addTask(title: "Email", time: "08:00", ctx)
        let report = try w.addTask(title: "Report", time: "12:30", ctx)
        try w.addTask(title: "Walk", time: "18:00", ctx)
        try w.addTask(title: "Bills", time: "19:00", ctx)
        if rest { try w.setRest(from: "today", to: "today", rest: true, ctx) }
        ctx.now = at("2026-03-02T12:00:00Z")
        #expect(try w.markDone(id: email, ctx) == 1)
        ctx.now = at("2026-03-02T12:31:00Z")
        #expect(try w.markDone(id: report, ctx) == 2)
        ctx.now = at("2026-03-03T00:00:00Z")
        let closed = try #require(w.closeDueDays(ctx).first?.record)
        return HistoryRecord(closed, stages: stages, zone: .utc)
    }

    func titles(_ story: DayStory) -> [String] {
        story.steps.map {
            switch $0 {
            case .done(let t): "+\(t.xp) \(t.title)"
            case .missed(let t): "-2 \(t.title)"
            case .uncharged(let t): "0 \(t.title)"
            case .dailyResult(let done, let total): "daily \(done)/\(total)"
            }
        }
    }

    @Test func aJudgedDayInTheRulesOrder() throws {
        let story = DayStory(try closedMonday(rest: false), stages: .builtIn)
        // Completions by completion sequence, misses in day order, then the daily result.
        #expect(titles(story) == ["+1 Email", "+2 Report", "-2 Walk", "-2 Bills", "daily 2/4"])
        // 11 + 1 + 2 − 2 − 2 = 10; 2 of 4 is 0.5: no daily result.
        #expect(story.xpSum == -1 && story.dailyXP == 0)
        #expect(story.before == PetState(stageIndex: 2, stageXP: 11))
        #expect(story.replayed == PetState(stageIndex: 2, stageXP: 10))
        #expect(story.sumAgrees && story.replayAgrees)
    }

    @Test func aRestDayChargesNothingAndHasNoDailyResult() throws {
        let story = DayStory(try closedMonday(rest: true), stages: .builtIn)
        #expect(titles(story) == ["+1 Email", "+2 Report", "0 Walk", "0 Bills"])
        #expect(story.xpSum == 3 && story.dailyXP == 0)
        #expect(story.replayed == PetState(stageIndex: 2, stageXP: 14))
        #expect(story.sumAgrees && story.replayAgrees)
    }

    @Test func aRecordThatDoesNotAddUpIsCaught() throws {
        var record = try closedMonday(rest: false)
        record.xpChange += 5
        #expect(!DayStory(record, stages: .builtIn).sumAgrees)
        record = try closedMonday(rest: false)
        record.dailyXP = 3
        #expect(!DayStory(record, stages: .builtIn).sumAgrees)
        record = try closedMonday(rest: false)
        record.stageXPClose = 12
        let story = DayStory(record, stages: .builtIn)
        #expect(story.sumAgrees && !story.replayAgrees)
    }

    /// Told with another table than the one the day closed under, the replay can disagree:
    /// Frog 11 + 3 with a Frog threshold of 12 evolves, then two misses de-evolve.
    @Test func anotherStageTableChangesTheReplay() throws {
        let record = try closedMonday(rest: false)
        let rows = [("Tadpole", 10), ("Minnow", 20), ("Frog", 12), ("Toad", 0)]
        let table = try StageTable(
            stages: rows.enumerated().map { Stage(i: $0, name: $1.0, threshold: $1.1, asset: "pet_\($0).png") })
        let story = DayStory(record, stages: table)
        // 11 + 1 = 12 → Toad 0 (final); +2 → Toad 2; −2 → Toad 0; −2 → Toad −2 → Frog 12 − 1 − 2 = 9.
        #expect(story.replayed == PetState(stageIndex: 2, stageXP: 9))
        #expect(story.sumAgrees && !story.replayAgrees)
    }

    @Test func aDayWithoutTasksHasNoEvents() throws {
        var (w, ctx) = monday("07:00")
        ctx.now = at("2026-03-03T00:00:00Z")
        let closed = try #require(w.closeDueDays(ctx).first?.record)
        let story = DayStory(HistoryRecord(closed, stages: .builtIn, zone: .utc), stages: .builtIn)
        #expect(story.steps.isEmpty && story.xpSum == 0 && story.sumAgrees && story.replayAgrees)
    }
}
