import PetCore
import Testing

@Suite struct EngineTests {
    let table = StageTable.builtIn

    func s(_ i: Int, _ xp: Int) -> PetState { PetState(stageIndex: i, stageXP: xp) }

    // petprogress(7) §2.1 worked examples, verbatim.
    @Test(arguments: [
        (PetState(stageIndex: 2, stageXP: 29), PetEvent.doneOnTime, PetState(stageIndex: 3, stageXP: 0)),
        (PetState(stageIndex: 2, stageXP: 1), .missed, PetState(stageIndex: 1, stageXP: 18)),
        (PetState(stageIndex: 0, stageXP: 1), .missed, PetState(stageIndex: 0, stageXP: 0)),
        (PetState(stageIndex: 19, stageXP: 7), .doneOnTime, PetState(stageIndex: 19, stageXP: 9)),
        (PetState(stageIndex: 19, stageXP: 0), .missed, PetState(stageIndex: 18, stageXP: 582)),
    ])
    func workedExamples(start: PetState, event: PetEvent, expected: PetState) {
        #expect(Engine.apply(event, to: start, table: table) == expected)
    }

    @Test func eventXP() {
        #expect(PetEvent.doneOnTime.xp == 2)
        #expect(PetEvent.doneLate.xp == 1)
        #expect(PetEvent.missed.xp == -2)
        #expect(PetEvent.dailyResult(done: 4, total: 5).xp == 3)  // 0.8 exactly
        #expect(PetEvent.dailyResult(done: 3, total: 4).xp == 0)  // 0.75
        #expect(PetEvent.dailyResult(done: 2, total: 5).xp == 0)  // 0.4 exactly is not < 0.4
        #expect(PetEvent.dailyResult(done: 1, total: 3).xp == -3)  // 0.33
        #expect(PetEvent.dailyResult(done: 0, total: 0).xp == 0)  // no tasks, no result
        #expect(PetEvent.dailyResult(done: 5, total: 5).xp == 3)
    }

    /// Every stage boundary: one XP short of the threshold, then reaching it, on time and late.
    @Test func everyBoundary() {
        for i in 0..<table.finalIndex {
            let t = table.threshold(i)
            #expect(Engine.apply(.doneOnTime, to: s(i, t - 3), table: table) == s(i, t - 1))
            #expect(Engine.apply(.doneOnTime, to: s(i, t - 2), table: table) == s(i + 1, 0))
            #expect(Engine.apply(.doneOnTime, to: s(i, t - 1), table: table) == s(i + 1, 0), "surplus discarded")
            #expect(Engine.apply(.doneLate, to: s(i, t - 2), table: table) == s(i, t - 1))
            #expect(Engine.apply(.doneLate, to: s(i, t - 1), table: table) == s(i + 1, 0))
            // Missing at XP 0 or 1 of stage i+1 falls back into stage i with threshold − 1 + XP.
            #expect(Engine.apply(.missed, to: s(i + 1, 1), table: table) == s(i, t - 2))
            #expect(Engine.apply(.missed, to: s(i + 1, 0), table: table) == s(i, t - 3))
            #expect(Engine.apply(.missed, to: s(i + 1, 2), table: table) == s(i + 1, 0))
        }
    }

    @Test func dailyResultEvolvesThenDeEvolves() {
        // +3 crosses the Tadpole threshold.
        #expect(Engine.apply(.dailyResult(done: 5, total: 5), to: s(0, 8), table: table) == s(1, 0))
        // −3 from Minnow 1 falls to Tadpole with 10 − 1 + (−2) = 7.
        #expect(Engine.apply(.dailyResult(done: 0, total: 5), to: s(1, 1), table: table) == s(0, 7))
        // A neutral rate changes nothing.
        #expect(Engine.apply(.dailyResult(done: 3, total: 5), to: s(4, 10), table: table) == s(4, 10))
    }

    @Test func deEvolutionFloorsAtZeroWithinTheNewStage() {
        // A tiny table where one miss spans more than a whole stage's threshold.
        let tiny = try! StageTable(stages: [
            Stage(i: 0, name: "A", threshold: 1, asset: "pet_a.png"),
            Stage(i: 1, name: "B", threshold: 1, asset: "pet_b.png"),
            Stage(i: 2, name: "C", threshold: 0, asset: "pet_c.png"),
        ])
        // (2,0) −2 → (1, max(0, 1−1−2)) = (1,0): XP no longer negative, so it stops there.
        #expect(Engine.apply(.missed, to: s(2, 0), table: tiny) == s(1, 0))
        #expect(Engine.apply(.dailyResult(done: 0, total: 1), to: s(1, 0), table: tiny) == s(0, 0))
    }

    @Test func finalStageNeverEvolvesAndKeepsCounting() {
        var pet = s(19, 0)
        for _ in 0..<1000 { pet = Engine.apply(.doneOnTime, to: pet, table: table) }
        #expect(pet == s(19, 2000))
    }

    @Test func storedIndexPastAShorterTableIsClamped() {
        let short = try! StageTable(stages: [
            Stage(i: 0, name: "A", threshold: 5, asset: "pet_a.png"),
            Stage(i: 1, name: "B", threshold: 0, asset: "pet_b.png"),
        ])
        #expect(Engine.apply(.doneOnTime, to: s(12, 4), table: short) == s(1, 6))
    }
}
