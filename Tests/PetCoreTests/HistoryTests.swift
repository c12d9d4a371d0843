import PetCore
import Testing

/// `GetHistory`'s range and its record of a closed day (petprogress(7) §6.1).
@Suite struct HistoryTests {
    @Test(
        arguments: [
            ("", "", nil, nil),
            ("2026-03-01", "", "2026-03-01", nil),
            ("", "2026-03-01", nil, "2026-03-01"),
            ("2026-03-01", "2026-03-01", "2026-03-01", "2026-03-01"),
        ] as [(String, String, String?, String?)])
    func validRanges(from: String, to: String, lower: String?, upper: String?) throws {
        let range = try HistoryRange.parse(from: from, to: to)
        #expect(range == HistoryRange(from: lower.map(key), to: upper.map(key)))
    }

    @Test(arguments: [
        ("today", ""), ("", "tomorrow"), ("2026-3-01", ""), ("2026-02-29", ""), ("2026-03-02", "2026-03-01"),
        (" 2026-03-01", ""), ("2026-03-01\n", ""),
    ])
    func invalidRanges(from: String, to: String) {
        expectError(.invalidArgument) { _ = try HistoryRange.parse(from: from, to: to) }
    }

    @Test func rangeMembershipAndYears() {
        let range = HistoryRange(from: key("2025-12-30"), to: key("2026-01-02"))
        #expect(range.contains(key("2025-12-30")) && range.contains(key("2026-01-02")))
        #expect(!range.contains(key("2025-12-29")) && !range.contains(key("2026-01-03")))
        #expect(range.overlaps(year: 2025) && range.overlaps(year: 2026))
        #expect(!range.overlaps(year: 2024) && !range.overlaps(year: 2027))
        #expect(HistoryRange(from: nil, to: nil).overlaps(year: 1))
    }

    /// A closed day's record, with the stage name from the table in force now and the tasks as
    /// they stood at closing.
    @Test func aRecordDescribesTheClosedDay() throws {
        var (w, ctx) = monday("09:00")
        w.openingPet = PetState(stageIndex: 2, stageXP: 28)
        let a = try w.addTask(title: "report", time: "09:00", ctx)
        try w.addTask(title: "walk", time: "18:00", ctx)
        try w.markDone(id: a, ctx)
        ctx.now = at("2026-03-03T00:00:00Z")
        let closed = try #require(w.closeDueDays(ctx).first?.record)
        // +2 → (3,0); a miss → (3,−2) → (2, 30−1−2 = 27); 1 of 2, no daily result.
        let record = HistoryRecord(closed, stages: .builtIn, zone: .utc)
        #expect(record.dayKey == "2026-03-02")
        #expect(record.start == at("2026-03-02T00:00:00Z") && record.end == at("2026-03-03T00:00:00Z"))
        #expect((record.tasksDone, record.tasksTotal, record.rate) == (1, 2, 0.5))
        #expect(!record.rest && record.xpChange == 0 && record.dailyXP == 0)
        #expect((record.stageIndexOpen, record.stageXPOpen) == (2, 28))
        #expect((record.stageIndexClose, record.stageXPClose) == (2, 27))
        #expect(record.stageNameClose == "Frog")
        #expect(record.tasks.map(\.title) == ["report", "walk"])
        #expect(record.tasks.map(\.xp) == [2, 0])
        #expect(record.tasks.allSatisfy { !$0.isNext && !$0.overdue })
        let short = try StageTable(stages: [
            Stage(i: 0, name: "Egg", threshold: 5, asset: "pet_egg.png"),
            Stage(i: 1, name: "Bird", threshold: 0, asset: "pet_bird.png"),
        ])
        #expect(HistoryRecord(closed, stages: short, zone: .utc).stageNameClose == "Bird")
    }
}
