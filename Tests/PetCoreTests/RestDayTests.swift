import PetCore
import Testing

/// Rest days (petprogress(7) §3.1.1): marked in advance or while open, closed without judgement.
@Suite struct RestDayTests {
    /// One closeout: the open day's tasks (`2` on time, `1` late, `0` not done), whether it is a
    /// rest day, the pet it opened with; what the record and the pet say after it.
    struct Row: Sendable, CustomTestStringConvertible {
        let rest: Bool
        let tasks: [Int]
        let opening: PetState
        let xpChange: Int
        let resultXP: Int
        let after: PetState

        var testDescription: String { "\(rest ? "rest" : "ordinary") day \(tasks) from \(opening)" }
    }

    static let rows: [Row] = [
        // 1 of 3: two misses and −3 (the worked example of CloseoutTests) …
        Row(
            rest: false, tasks: [2, 0, 0], opening: .init(stageIndex: 1, stageXP: 1), xpChange: -5, resultXP: -3,
            after: .init(stageIndex: 0, stageXP: 5)),
        // … and as a rest day: the completion only.
        Row(
            rest: true, tasks: [2, 0, 0], opening: .init(stageIndex: 1, stageXP: 1), xpChange: 2, resultXP: 0,
            after: .init(stageIndex: 1, stageXP: 3)),
        // 4 of 5: one miss and +3; a rest day forgoes the +3 too (no daily result at all).
        Row(
            rest: false, tasks: [2, 2, 1, 2, 0], opening: .init(stageIndex: 0, stageXP: 0), xpChange: 8, resultXP: 3,
            after: .init(stageIndex: 0, stageXP: 8)),
        Row(
            rest: true, tasks: [2, 2, 1, 2, 0], opening: .init(stageIndex: 0, stageXP: 0), xpChange: 7, resultXP: 0,
            after: .init(stageIndex: 0, stageXP: 7)),
        // Nothing done: at Frog 1 an ordinary day de-evolves ((2,−1) → (1,18) → 16 → 13); a rest
        // day changes nothing.
        Row(
            rest: false, tasks: [0, 0], opening: .init(stageIndex: 2, stageXP: 1), xpChange: -7, resultXP: -3,
            after: .init(stageIndex: 1, stageXP: 13)),
        Row(
            rest: true, tasks: [0, 0], opening: .init(stageIndex: 2, stageXP: 1), xpChange: 0, resultXP: 0,
            after: .init(stageIndex: 2, stageXP: 1)),
        // All done: +3 on an ordinary day; completions still evolve on a rest day.
        Row(
            rest: false, tasks: [2, 2], opening: .init(stageIndex: 0, stageXP: 5), xpChange: 7, resultXP: 3,
            after: .init(stageIndex: 1, stageXP: 0)),
        Row(
            rest: true, tasks: [2, 2], opening: .init(stageIndex: 0, stageXP: 7), xpChange: 4, resultXP: 0,
            after: .init(stageIndex: 1, stageXP: 0)),
        // A day with no tasks: no daily result either way, archived because the daemon ran in it.
        Row(
            rest: false, tasks: [], opening: .init(stageIndex: 3, stageXP: 4), xpChange: 0, resultXP: 0,
            after: .init(stageIndex: 3, stageXP: 4)),
        Row(
            rest: true, tasks: [], opening: .init(stageIndex: 3, stageXP: 4), xpChange: 0, resultXP: 0,
            after: .init(stageIndex: 3, stageXP: 4)),
    ]

    @Test(arguments: rows)
    func aClosedDayIsJudgedUnlessItIsARestDay(row: Row) throws {
        var (w, ctx) = monday("07:00")
        w.openingPet = row.opening
        for (n, xp) in row.tasks.enumerated() {
            let id = try w.addTask(title: "task \(n)", time: "0\(n):00", ctx)
            // Hour n; at 07:00 within 60 minutes is on time only for 06:00+.
            if xp > 0 {
                try w.markDone(id: id, Context(now: at("2026-03-02T0\(n):00:00Z") + (xp == 2 ? 0 : 7200), zone: .utc))
            }
        }
        if row.rest { try w.setRest(from: "today", to: "today", rest: true, ctx) }
        #expect(w.isRestDay(key("2026-03-02")) == row.rest)
        ctx.now = at("2026-03-03T00:00:00Z")
        let closeouts = w.closeDueDays(ctx)
        let record = try #require(closeouts.first?.record)
        #expect(record.rest == row.rest)
        #expect(record.xpChange == row.xpChange)
        #expect(record.resultXP == row.resultXP)
        #expect(record.total == row.tasks.count && record.done == row.tasks.filter { $0 > 0 }.count)
        #expect(record.tasks.map(\.xp) == row.tasks)
        #expect(record.petAtOpen == row.opening && record.petAtClose == row.after)
        #expect(w.livePet(.builtIn) == row.after)
        #expect(w.restDays.isEmpty, "the closed day's key left the set")
    }

    /// A world whose open day is Monday 2026-03-02 (UTC) and whose last closed day is Sunday.
    static func afterSunday(_ time: String = "08:00") -> (PetWorld, Context) {
        let ctx = Context(now: at("2026-03-02T\(time):00Z"), zone: .utc)
        return (PetWorld(now: ctx.now, zone: .utc, lastClosedDay: key("2026-03-01")), ctx)
    }

    /// `SetRest`'s checks, in petprogress(7) §6.1's order: malformed or reversed → `InvalidArgument`; a closed
    /// day in range → `ReadOnlyDay`; beyond 365 days after the open day → `InvalidArgument`.
    @Test(arguments: [
        ("bogus", "today", PetError.Kind.invalidArgument),
        ("", "", .invalidArgument),
        ("today", "2026-3-04", .invalidArgument),
        ("Today", "today", .invalidArgument),
        ("2026-02-30", "2026-03-05", .invalidArgument),
        ("2026-03-05", "2026-03-04", .invalidArgument),
        ("tomorrow", "today", .invalidArgument),
        // Reversed beats read-only; malformed beats read-only.
        ("2026-03-05", "2026-02-01", .invalidArgument),
        ("2026-02-01", "nope", .invalidArgument),
        ("2026-03-01", "2026-03-01", .readOnlyDay),
        ("2026-02-20", "2026-03-03", .readOnlyDay),
        ("1999-01-01", "today", .readOnlyDay),
        // Read-only beats the bound.
        ("2026-03-01", "2027-12-31", .readOnlyDay),
        ("2026-03-02", "2027-03-03", .invalidArgument),
        ("2027-03-03", "2027-03-03", .invalidArgument),
        ("2030-01-01", "2031-01-01", .invalidArgument),
    ])
    func setRestRejectsInOrderAndChangesNothing(from: String, to: String, kind: PetError.Kind) throws {
        var (w, ctx) = Self.afterSunday()
        try w.setRest(from: "2026-03-10", to: "2026-03-11", rest: true, ctx)
        let before = w
        for rest in [true, false] {
            expectError(kind) { try w.setRest(from: from, to: to, rest: rest, ctx) }
            #expect(w == before)
        }
    }

    @Test func theOpenDayAndTheNext365DaysMayBeMarked() throws {
        var (w, ctx) = Self.afterSunday()
        try w.setRest(from: "today", to: "2027-03-02", rest: true, ctx)
        #expect(w.restDays.count == 366)
        #expect(w.restDays.first == key("2026-03-02") && w.restDays.last == key("2027-03-02"))
        #expect(w.markedRestDays == w.restDays)
        try w.setRest(from: "tomorrow", to: "2027-03-01", rest: false, ctx)
        #expect(w.restDays == [key("2026-03-02"), key("2027-03-02")])
        // Marking twice, or unmarking what is not marked, is no change and no error.
        try w.setRest(from: "today", to: "today", rest: true, ctx)
        try w.setRest(from: "2026-05-01", to: "2026-05-03", rest: false, ctx)
        #expect(w.restDays == [key("2026-03-02"), key("2027-03-02")])
        #expect(w.isRestDay(key("2026-03-02")) && !w.isRestDay(key("2026-03-03")))
    }

    @Test func tomorrowIsTheNextDayAsProjected() throws {
        var (w, ctx) = Self.afterSunday("22:00")
        try w.setResetTime("04:00")
        try w.setRest(from: "tomorrow", to: "tomorrow", rest: true, ctx)
        #expect(w.restDays == [key("2026-03-03")])
    }

    /// Rollover carries a rest day's undone one-off tasks, uncharged; a day that opens as a rest
    /// day gets no recurring instances, but rolled tasks land on it.
    @Test func rolloverCarriesAndARestDayOpensWithoutInstances() throws {
        var (w, ctx) = monday("08:00")
        w.setRollover(true)
        w.openingPet = PetState(stageIndex: 2, stageXP: 10)
        try w.addTask(title: "stretch", time: "07:00", repeat: "daily", ctx)
        try w.addTask(title: "taxes", time: "22:00", ctx)
        try w.setRest(from: "today", to: "tomorrow", rest: true, ctx)
        ctx.now = at("2026-03-03T06:00:00Z")
        let closeouts = w.closeDueDays(ctx)
        let record = try #require(closeouts.first?.record)
        #expect(record.rest && record.xpChange == 0 && record.total == 2 && record.done == 0)
        #expect(w.livePet(.builtIn) == PetState(stageIndex: 2, stageXP: 10), "nothing charged")
        #expect(w.tasks.map(\.title) == ["taxes"], "no instance on a rest day; the rolled copy lands")
        #expect(w.tasks.first?.id.hasPrefix("20260303-") == true)
        #expect(w.isRestDay(w.openDay.key) && w.restDays == [key("2026-03-03")])
        // Tuesday rolls "taxes" on to Wednesday, an ordinary day: instance and copy, nothing charged.
        ctx.now = at("2026-03-04T06:00:00Z")
        _ = w.closeDueDays(ctx)
        #expect(w.tasks.map(\.title) == ["stretch", "taxes"])
        #expect(w.livePet(.builtIn) == PetState(stageIndex: 2, stageXP: 10))
        #expect(w.restDays.isEmpty)
    }

    /// Instances that exist when the open day is marked stay, uncharged; unmarking does not
    /// create instances retroactively; unmarking before the end makes the closeout judge the day.
    @Test func markingAndUnmarkingTheOpenDay() throws {
        var (w, ctx) = monday("08:00")
        try w.addTask(title: "stretch", time: "07:00", repeat: "daily", ctx)
        try w.setRest(from: "today", to: "today", rest: true, ctx)
        #expect(w.tasks.map(\.title) == ["stretch"], "the instance stays")
        ctx.now = at("2026-03-03T06:00:00Z")
        var record = try #require(w.closeDueDays(ctx).first?.record)
        #expect(record.rest && record.xpChange == 0 && record.tasks.map(\.title) == ["stretch"])

        // Wednesday marked in advance: opens with no instance; unmarked while open, still none.
        // (Tuesday's instance is snoozed: the user was there, so Wednesday is no return day.)
        try w.setRest(from: "tomorrow", to: "tomorrow", rest: true, ctx)
        try w.snooze(id: try #require(w.tasks.first?.id), ctx)
        ctx.now = at("2026-03-04T06:00:00Z")
        _ = w.closeDueDays(ctx)
        #expect(w.tasks.isEmpty && w.isRestDay(key("2026-03-04")))
        try w.setRest(from: "today", to: "today", rest: false, ctx)
        #expect(w.tasks.isEmpty, "no instance created retroactively")
        try w.addTask(title: "call", time: "10:00", ctx)
        ctx.now = at("2026-03-05T00:00:00Z")
        record = try #require(w.closeDueDays(ctx).first?.record)
        #expect(!record.rest && record.xpChange == -2 - 3 && record.resultXP == -3, "judged normally")
    }

    /// Several days caught up at once, some marked: each is judged by its own flag, with the
    /// instances and rolled copies it would have had (petprogress(7) §3.1, "Catch-up").
    @Test func catchUpJudgesEachDayByItsOwnFlag() throws {
        var (w, ctx) = monday("20:00")
        w.setRollover(true)
        w.openingPet = PetState(stageIndex: 2, stageXP: 10)
        try w.addTask(title: "stretch", time: "21:00", repeat: "daily", ctx)
        try w.addTask(title: "taxes", time: "22:00", ctx)
        try w.addTask(title: "call mum", time: "12:00", day: "tomorrow", ctx)
        try w.setRest(from: "tomorrow", to: "2026-03-04", rest: true, ctx)
        try w.setRest(from: "2026-03-06", to: "2026-03-06", rest: true, ctx)
        ctx.now = at("2026-03-06T09:00:00Z")
        let closeouts = w.closeDueDays(ctx)
        #expect(closeouts.map(\.day.key) == ["2026-03-02", "2026-03-03", "2026-03-04", "2026-03-05"].map(key))
        // Monday (ordinary, run in): 2 misses, rate 0: (2,10) → (2,6) → −3 → (2,3).
        #expect(closeouts[0].record?.rest == false && closeouts[0].record?.xpChange == -7)
        #expect(closeouts[0].petAfter == PetState(stageIndex: 2, stageXP: 3))
        // Tuesday (marked: no instance; the task added in advance and Monday's rolled "taxes"):
        // archived as rest, nothing charged; Wednesday (marked) likewise with both rolled again.
        for n in 1...2 {
            #expect(
                closeouts[n].record?.rest == true && closeouts[n].record?.tasks.map(\.title) == ["call mum", "taxes"])
            #expect(closeouts[n].record?.xpChange == 0 && closeouts[n].petAfter == PetState(stageIndex: 2, stageXP: 3))
        }
        // Thursday (not marked, untouched after a touched Wednesday): its instance and the rolled
        // copies, judged as usual: 3 misses and −3.
        #expect(closeouts[3].record?.rest == false && closeouts[3].record?.away == false)
        #expect(closeouts[3].record?.tasks.map(\.title) == ["call mum", "stretch", "taxes"])
        #expect(closeouts[3].record?.xpChange == -9)
        // Friday opens marked: no instance; Thursday's "call mum" and "taxes" roll in.
        #expect(w.openDay.key == key("2026-03-06") && w.isRestDay(w.openDay.key))
        #expect(w.tasks.map(\.title) == ["call mum", "taxes"])
        #expect(w.restDays == [key("2026-03-06")])
    }

    /// Every key up to and including the closed day's leaves the set; later ones stay.
    @Test func closingADayPrunesTheSetUpToItsKey() throws {
        var (w, ctx) = monday("08:00")
        try w.setRest(from: "today", to: "2026-03-05", rest: true, ctx)
        try w.setRest(from: "2026-03-09", to: "2026-03-09", rest: true, ctx)
        ctx.now = at("2026-03-04T09:00:00Z")
        _ = w.closeDueDays(ctx)
        #expect(w.restDays == [key("2026-03-04"), key("2026-03-05"), key("2026-03-09")])
        #expect(w.markedRestDays == w.restDays)
    }

    /// A key a zone change skipped (the next day's key jumps past it) is not listed, and leaves
    /// the set at the next closeout.
    @Test func aSkippedKeyIsNotListedAndLeavesAtTheNextCloseout() throws {
        // Monday in Pago Pago (−11) runs to 2026-03-03T11:00Z; from Kiritimati (+14) that instant
        // is 03-04 01:00, so the next day is keyed 03-04 and 03-03 is never a day.
        var ctx = Context(now: at("2026-03-02T20:00:00Z"), zone: zone("Pacific/Pago_Pago"))
        var w = PetWorld(now: ctx.now, zone: ctx.zone)
        try w.setRest(from: "tomorrow", to: "2026-03-04", rest: true, ctx)
        #expect(w.restDays == [key("2026-03-03"), key("2026-03-04")])
        ctx.now = at("2026-03-03T11:00:00Z")
        ctx.zone = zone("Pacific/Kiritimati")
        _ = w.closeDueDays(ctx)
        #expect(w.openDay.key == key("2026-03-04") && w.isRestDay(w.openDay.key))
        #expect(
            w.restDays == [key("2026-03-03"), key("2026-03-04")],
            "petprogress(7) §3.1.1: rest marks are pruned up to the closed day's key")
        #expect(w.markedRestDays == [key("2026-03-04")], "listed from the open day on")
        ctx.now = w.openDay.end
        _ = w.closeDueDays(ctx)
        #expect(w.restDays.isEmpty)
    }

    @Test func theEntryAndTheTimelineShowRestDays() throws {
        var (w, ctx) = monday("20:10")
        try w.addTask(title: "stretch", time: "07:00", repeat: "daily", ctx)
        try w.addTask(title: "dentist", time: "09:30", day: "tomorrow", ctx)
        #expect(render(w.widgetEntry(ctx)["rest_day"]) == "b:false")
        try w.setRest(from: "today", to: "tomorrow", rest: true, ctx)
        let entry = w.widgetEntry(ctx)
        #expect(render(entry["rest_day"]) == "b:true")
        #expect(
            render(entry["accessible_text"])
                == #"s:"Tadpole, stage 1 of 20, 0 of 10 XP. Rest day. 0 of 1 task done. Next: 07:00 stretch, overdue.""#
        )
        let timeline = w.timeline(ctx)
        #expect(timeline.allSatisfy { render($0["rest_day"]) == "b:true" })
        let tuesday = timeline.filter { render($0["day_key"]) == #"s:"2026-03-03""# }
        #expect(!tuesday.isEmpty)
        // The marked next day projects no instance; the task added for it stays.
        #expect(
            tuesday.allSatisfy {
                render($0["tasks_total"]) == "i:1" && render($0["next_task_title"]) == #"s:"dentist""#
            })
        try w.setRest(from: "tomorrow", to: "tomorrow", rest: false, ctx)
        let unmarked = w.timeline(ctx).filter { render($0["day_key"]) == #"s:"2026-03-03""# }
        #expect(unmarked.allSatisfy { render($0["tasks_total"]) == "i:2" && render($0["rest_day"]) == "b:false" })
    }

    @Test func aRestDayChangesNothingInThePetPart() throws {
        var (w, ctx) = monday("10:00")
        w.openingPet = PetState(stageIndex: 2, stageXP: 12)
        _ = w.catchUp(ctx, startingUp: true)
        let before = w.widgetEntry(ctx)
        try w.setRest(from: "today", to: "today", rest: true, ctx)
        let after = w.widgetEntry(ctx)
        #expect(after.pet == before.pet && after.date == before.date)
        #expect(w.livePet(.builtIn) == PetState(stageIndex: 2, stageXP: 12))
    }

    @Test func accessibleTextNamesARestDay() {
        let frog = PetState(stageIndex: 2, stageXP: 12)
        #expect(
            AccessibleText.sentence(pet: frog, stages: .builtIn, done: 0, total: 0, next: nil, restDay: true)
                == "Frog, stage 3 of 20, 12 of 30 XP. Rest day. No tasks planned.")
        #expect(
            AccessibleText.sentence(pet: frog, stages: .builtIn, done: 2, total: 2, next: nil, restDay: true)
                == "Frog, stage 3 of 20, 12 of 30 XP. Rest day. 2 of 2 tasks done. Nothing pending.")
    }
}
