import Foundation
import PetCore
import Testing

@Suite struct CloseoutTests {
    @Test func aDayClosesOnceWithMissesDailyResultAndRecord() throws {
        var (w, ctx) = monday()
        w.openingPet = PetState(stageIndex: 1, stageXP: 1)
        let a = try w.addTask(title: "a", time: "08:00", ctx)
        try w.addTask(title: "b", time: "09:00", ctx)
        try w.addTask(title: "c", time: "10:00", ctx)
        try w.markDone(id: a, ctx)  // (1,3)
        ctx.now = at("2026-03-02T23:59:59Z")
        #expect(w.closeDueDays(ctx).isEmpty, "not before the day ends")
        ctx.now = at("2026-03-03T00:00:00Z")
        let closeouts = w.closeDueDays(ctx)
        // Two misses: (1,3) → (1,1) → (1,-1) → (0, 10−1−1) = (0,8); rate 1/3 < 0.4: −3 → (0,5).
        #expect(closeouts.count == 1)
        let record = try #require(closeouts.first?.record)
        #expect(record.day.key == key("2026-03-02"))
        #expect((record.done, record.total) == (1, 3))
        #expect(record.petAtOpen == PetState(stageIndex: 1, stageXP: 1))
        #expect(record.petAtClose == PetState(stageIndex: 0, stageXP: 5))
        #expect(record.xpChange == 2 - 2 - 2 - 3)
        #expect(record.closedAt == at("2026-03-03T00:00:00Z"))
        #expect(closeouts.first?.petAfter == PetState(stageIndex: 0, stageXP: 5))
        #expect(w.livePet(.builtIn) == PetState(stageIndex: 0, stageXP: 5))
        #expect(w.lastClosedDay == key("2026-03-02"))
        #expect(w.openDay.key == key("2026-03-03") && w.tasks.isEmpty)
        // Exactly once: running it again, even much later in the same day, changes nothing.
        let after = w
        ctx.now = at("2026-03-03T18:00:00Z")
        #expect(w.closeDueDays(ctx).isEmpty)
        #expect(w == after)
    }

    @Test func aLiveDayWithNoTasksIsArchivedWithoutADailyResult() {
        var (w, ctx) = monday()
        w.openingPet = PetState(stageIndex: 3, stageXP: 4)
        ctx.now = at("2026-03-03T00:00:01Z")
        let closeouts = w.closeDueDays(ctx)
        #expect(closeouts.count == 1)
        #expect(closeouts.first?.record?.total == 0)
        #expect(w.livePet(.builtIn) == PetState(stageIndex: 3, stageXP: 4))
    }

    @Test func tomorrowsTasksMoveIntoTheNewDay() throws {
        var (w, ctx) = monday()
        let id = try w.addTask(title: "dentist", time: "09:30", day: "tomorrow", ctx)
        ctx.now = at("2026-03-03T07:00:00Z")
        _ = w.closeDueDays(ctx)
        #expect(w.tasks.map(\.id) == [id])
        #expect(w.tasks.first?.scheduled == at("2026-03-03T09:30:00Z"))
        #expect(w.tomorrow.isEmpty)
        try w.markDone(id: id, ctx)
    }

    /// Three days off (petprogress(7) §3.1, "Catch-up"): each day caught up gets the recurring
    /// instances and rolled copies it would have had. Tuesday (touched: a task added in advance)
    /// holds "call mum", its "stretch" instance and Monday's rolled "taxes"; Wednesday (untouched,
    /// after a touched Tuesday) is judged as usual — skipping a day costs that day; Thursday is
    /// open with its instance and Wednesday's rolled copies.
    @Test func catchUpAfterThreeDaysOff() throws {
        var (w, ctx) = monday("20:00")
        w.setRollover(true)
        w.openingPet = PetState(stageIndex: 2, stageXP: 10)
        let daily = try w.addTask(title: "stretch", time: "21:00", repeat: "daily", ctx)
        try w.addTask(title: "taxes", time: "22:00", ctx)
        try w.addTask(title: "call mum", time: "12:00", day: "tomorrow", ctx)
        ctx.now = at("2026-03-05T09:00:00Z")
        let closeouts = w.closeDueDays(ctx)
        #expect(closeouts.map(\.day.key) == [key("2026-03-02"), key("2026-03-03"), key("2026-03-04")])
        #expect(closeouts.map { $0.record != nil } == [true, true, true])
        #expect(closeouts.allSatisfy { $0.record?.away == false && $0.record?.returned == false })
        // Monday: 2 misses, rate 0: (2,10) → (2,6) → −3 → (2,3). Tuesday: 3 misses + −3 → (1,13).
        // Wednesday: 3 misses + −3 → (1,4).
        #expect(closeouts[0].petAfter == PetState(stageIndex: 2, stageXP: 3))
        #expect(closeouts[1].petAfter == PetState(stageIndex: 1, stageXP: 13))
        #expect(closeouts[2].petAfter == PetState(stageIndex: 1, stageXP: 4))
        #expect(closeouts[1].record?.tasks.map(\.title) == ["call mum", "stretch", "taxes"])
        #expect(closeouts[2].record?.tasks.map(\.title) == ["call mum", "stretch", "taxes"])
        #expect(closeouts[2].record?.tasks.filter { $0.templateID == daily }.count == 1, "the day's own instance")
        #expect(w.openDay.key == key("2026-03-05"))
        #expect(w.lastClosedDay == key("2026-03-04"))
        // Thursday: the daily instance, then rolled copies of Wednesday's "call mum" and "taxes";
        // Wednesday's "stretch" instance is not rolled (its template seeds it).
        #expect(w.tasks.map(\.title) == ["stretch", "call mum", "taxes"])
        #expect(w.tasks[0].templateID == daily)
        #expect(w.tasks.allSatisfy { !$0.isDone && $0.snoozedUntil == nil && $0.id.hasPrefix("20260305-") })
        #expect(w.tasks[2].scheduled == at("2026-03-05T22:00:00Z"))
    }

    @Test func rolloverOffCarriesNothing() throws {
        var (w, ctx) = monday()
        try w.addTask(title: "taxes", time: "22:00", ctx)
        ctx.now = at("2026-03-03T09:00:00Z")
        _ = w.closeDueDays(ctx)
        #expect(w.tasks.isEmpty)
    }

    @Test func aBackwardClockKeepsTheOpenDayOpen() throws {
        var (w, ctx) = monday("12:00")
        let before = w
        ctx.now = at("2026-02-20T12:00:00Z")
        #expect(w.closeDueDays(ctx).isEmpty)
        #expect(w == before)
        let id = try w.addTask(title: "still today", time: "13:00", ctx)
        #expect(id.hasPrefix("20260302-"))
    }

    @Test func aResetChangeShapesTheNextDay() throws {
        var (w, ctx) = monday()
        try w.setResetTime("04:00")
        #expect(w.openDay.end == at("2026-03-03T00:00:00Z"), "the open day's interval is fixed")
        ctx.now = at("2026-03-03T02:00:00Z")
        _ = w.closeDueDays(ctx)
        #expect(w.openDay == day("2026-03-03", "2026-03-03T00:00:00Z", "2026-03-04T04:00:00Z"))
    }
}

@Suite struct StageTableTests {
    @Test func builtInTable() {
        let t = StageTable.builtIn
        #expect(t.count == 20)
        #expect(
            t.stage(3).name == "Hermit Crab" && t.stage(3).iconName == "petprogress-hermit" && t.stage(3).glyph == "🦀")
        #expect(t.stage(19).threshold == 0 && t.stage(19).asset == "pet_god.png" && t.stage(19).glyph == "✨")
        // petprogress(7) §2's table, column by column.
        #expect(
            t.stages.map(\.threshold) == [
                10, 20, 30, 40, 50, 60, 75, 90, 110, 135, 165, 200, 240, 285, 335, 390, 450, 515, 585, 0,
            ])
        #expect(
            t.stages.map(\.base) == [
                "tadpole", "minnow", "frog", "hermit", "starfish", "jellyfish", "squid", "seahorse", "dolphin",
                "shark", "otter", "fox", "lynx", "wolf", "bear", "bison", "elephant", "rhino", "lion", "god",
            ])
        #expect(t.stages.map(\.glyph).joined() == "🫧🐟🐸🦀⭐🪼🦑🐴🐬🦈🦦🦊🐆🐺🐻🦬🐘🦏🦁✨")
    }

    @Test func validOverride() throws {
        let json =
            #"{"stages":[{"i":0,"name":"Egg","threshold":3,"asset":"pet_egg.png"},{"i":1,"name":"Bird","threshold":0,"asset":"pet_bird.png"}]}"#
        let t = try StageTable.parse(json: Data(json.utf8))
        #expect(t.count == 2 && t.stage(0).base == "egg" && t.stage(0).glyph == "🐾")
    }

    @Test(arguments: [
        (#"{"stages":[{"i":0,"name":"A","threshold":0,"asset":"pet_a.png"}]}"#, "at least 2"),
        (
            #"{"stages":[{"i":0,"name":"A","threshold":3,"asset":"a.png"},{"i":2,"name":"B","threshold":0,"asset":"b.png"}]}"#,
            "i must run"
        ),
        (
            #"{"stages":[{"i":0,"name":" ","threshold":3,"asset":"a.png"},{"i":1,"name":"B","threshold":0,"asset":"b.png"}]}"#,
            "empty name"
        ),
        (
            #"{"stages":[{"i":0,"name":"A\u001b]52;c;cHduZWQ=\u0007","threshold":3,"asset":"a.png"},{"i":1,"name":"B","threshold":0,"asset":"b.png"}]}"#,
            "control characters"
        ),
        (
            #"{"stages":[{"i":0,"name":"A","threshold":3,"asset":"a.png"},{"i":1,"name":"\u2069\u202eB","threshold":0,"asset":"b.png"}]}"#,
            "control characters"
        ),
        (
            // A name of 41 characters, spelled out: Swift 6.0's compiler crashes on an interpolation
            // inside @Test's arguments (Debian 13's swiftlang).
            #"{"stages":[{"i":0,"name":"xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx","threshold":3,"asset":"a.png"},{"i":1,"name":"B","threshold":0,"asset":"b.png"}]}"#,
            "at most 40"
        ),
        (
            #"{"stages":[{"i":0,"name":"A","threshold":0,"asset":"a.png"},{"i":1,"name":"B","threshold":0,"asset":"b.png"}]}"#,
            "above 0"
        ),
        (
            #"{"stages":[{"i":0,"name":"A","threshold":3,"asset":"a.png"},{"i":1,"name":"B","threshold":5,"asset":"b.png"}]}"#,
            "threshold 0"
        ),
        (
            #"{"stages":[{"i":0,"name":"A","threshold":3,"asset":"../a.png"},{"i":1,"name":"B","threshold":0,"asset":"b.png"}]}"#,
            "asset"
        ),
        (#"{"stages":[{"i":0,"name":"A","threshold":"3","asset":"a.png"}]}"#, "JSON"),
        (#"not json"#, "JSON"),
        (#"{}"#, "JSON"),
    ])
    func invalidOverridesNameTheProblem(json: String, problem: String) {
        do {
            _ = try StageTable.parse(json: Data(json.utf8))
            Issue.record("accepted \(json)")
        } catch {
            #expect(error.problem.contains(problem), "\(error.problem)")
        }
    }
}
