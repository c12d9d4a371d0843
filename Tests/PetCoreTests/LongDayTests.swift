import PetCore
import Testing

/// petprogress(7) §3 "Task times": the day a reset-time change from 00:00 to 04:00 shapes runs
/// from one midnight to 04:00 a calendar day later, so the small hours' wall times occur twice in
/// it, a day apart. Each row is a zone and the date the reset time changes; the long day is the
/// next one.
@Suite struct LongDayTests {
    struct Transition: CustomTestStringConvertible, Sendable {
        let zoneID: String
        let changedOn: String
        var testDescription: String { "\(zoneID) from \(changedOn)" }

        var zone: Zone { PetCoreTests.zone(zoneID) }
        var first: DayKey { key(changedOn).adding(days: 1) }
        var second: DayKey { key(changedOn).adding(days: 2) }

        /// The first instant of `date` whose local wall time is `time`.
        func local(_ date: DayKey, _ time: String) -> Instant { zone.placements(on: date, at: wall(time))[0] }

        /// The long day: from the first date's midnight to the second date's 04:00.
        var longDay: Day { Day(key: first, start: local(first, "00:00"), end: local(second, "04:00")) }
    }

    static let transitions = [
        Transition(zoneID: "Europe/Berlin", changedOn: "2026-05-10"),
        Transition(zoneID: "America/New_York", changedOn: "2026-06-10"),
        Transition(zoneID: "Asia/Kathmandu", changedOn: "2026-07-01"),
        Transition(zoneID: "Australia/Lord_Howe", changedOn: "2026-07-01"),
        // The long day meets a DST change: Berlin's clocks go back an hour at 03:00 on the 25th,
        // New York's forward an hour at 02:00 on the 8th, Lord Howe's forward half an hour at 02:00
        // on the 4th.
        Transition(zoneID: "Europe/Berlin", changedOn: "2026-10-24"),
        Transition(zoneID: "America/New_York", changedOn: "2026-03-07"),
        Transition(zoneID: "Australia/Lord_Howe", changedOn: "2026-10-03"),
    ]

    /// Noon of the day the reset time changes from 00:00 to 04:00.
    func changed(_ t: Transition) throws -> (PetWorld, Context) {
        let ctx = Context(now: t.local(key(t.changedOn), "12:00"), zone: t.zone)
        var w = PetWorld(now: ctx.now, zone: t.zone)
        try w.setResetTime("04:00")
        return (w, ctx)
    }

    /// Moves to `moment`, opening the long day.
    func enter(_ w: inout PetWorld, _ ctx: inout Context, at moment: Instant, _ t: Transition) {
        ctx.now = moment
        _ = w.closeDueDays(ctx)
        #expect(w.openDay == t.longDay)
    }

    func task(_ w: PetWorld, _ id: String) -> TaskItem? {
        (w.tasks + w.tomorrow).first { $0.id == id }
    }

    /// Added at 02:00 of the second night for 03:00: the occurrence an hour ahead, not the one
    /// 25 hours back, and not overdue. A recurring task added then gets its instance there too.
    @Test(arguments: transitions)
    func addedInTheSmallHoursMeansTheNearOccurrence(_ t: Transition) throws {
        var (w, ctx) = try changed(t)
        enter(&w, &ctx, at: t.local(t.second, "02:00"), t)
        let id = try w.addTask(title: "call", time: "03:00", ctx)
        let added = try #require(task(w, id))
        #expect(added.scheduled == t.local(t.second, "03:00"))
        #expect(added.scheduled - ctx.now == hour)
        #expect(!w.openDayRule.isDue(added, at: ctx.now) && !w.openDayRule.isOverdue(added, at: ctx.now))
        let template = try w.addTask(title: "pills", time: "03:00", repeat: "daily", ctx)
        #expect(w.tasks.first { $0.templateID == template }?.scheduled == t.local(t.second, "03:00"))
    }

    /// The occurrence closest to the moment the task is added.
    @Test(
        arguments: transitions,
        [
            ("first", "01:00", "first"), ("first", "23:00", "second"), ("second", "00:30", "second"),
        ])
    func addedWhileOpenMeansTheClosestOccurrence(_ t: Transition, _ when: (String, String, String)) throws {
        let (day, time, expected) = when
        var (w, ctx) = try changed(t)
        enter(&w, &ctx, at: t.local(day == "first" ? t.first : t.second, time), t)
        let id = try w.addTask(title: "call", time: "03:00", ctx)
        #expect(task(w, id)?.scheduled == t.local(expected == "first" ? t.first : t.second, "03:00"))
    }

    /// Exactly between the two occurrences the first wins; a minute later, the second.
    @Test(arguments: transitions)
    func aTieMeansTheFirst(_ t: Transition) throws {
        let a = t.local(t.first, "03:00")
        let b = t.local(t.second, "03:00")
        var (w, ctx) = try changed(t)
        enter(&w, &ctx, at: (a + b) / 2, t)
        let tie = try w.addTask(title: "tie", time: "03:00", ctx)
        #expect(task(w, tie)?.scheduled == a)
        ctx.now += 60
        let after = try w.addTask(title: "after", time: "03:00", ctx)
        #expect(task(w, after)?.scheduled == b)
    }

    /// A new time means the occurrence closest to the moment of the edit; an unchanged one stays.
    @Test(arguments: transitions)
    func retimingMeansTheOccurrenceClosestToTheEdit(_ t: Transition) throws {
        var (w, ctx) = try changed(t)
        enter(&w, &ctx, at: t.local(t.first, "01:00"), t)
        let id = try w.addTask(title: "call", time: "12:00", ctx)
        ctx.now = t.local(t.first, "05:00")
        try w.updateTask(id: id, title: "", time: "03:30", ctx)
        #expect(task(w, id)?.scheduled == t.local(t.first, "03:30"), "90 minutes back beats 22 hours ahead")
        ctx.now = t.local(t.second, "02:00")
        try w.updateTask(id: id, title: "calls", time: "", ctx)
        #expect(task(w, id)?.scheduled == t.local(t.first, "03:30"), "a title edit keeps the instant")
        try w.updateTask(id: id, title: "", time: "03:15", ctx)
        #expect(task(w, id)?.scheduled == t.local(t.second, "03:15"))
        try w.updateTask(id: id, title: "", time: "01:00", ctx)
        #expect(task(w, id)?.scheduled == t.local(t.second, "01:00"), "an hour back beats 25 hours back")
    }

    /// A task added (or re-timed) in advance, a rolled copy and a recurring instance mean the
    /// first occurrence.
    @Test(arguments: transitions)
    func inAdvanceAndRecurringMeanTheFirst(_ t: Transition) throws {
        var (w, ctx) = try changed(t)
        w.setRollover(true)
        let template = try w.addTask(title: "stretch", time: "03:00", repeat: "daily", ctx)
        _ = try w.addTask(title: "rolled", time: "13:00", ctx)
        ctx.now = t.local(key(t.changedOn), "23:00")
        let early = try w.addTask(title: "early", time: "03:00", day: "tomorrow", ctx)
        #expect(task(w, early)?.scheduled == t.local(t.first, "03:00"))
        let moved = try w.addTask(title: "moved", time: "02:30", day: "tomorrow", ctx)
        try w.updateTask(id: moved, title: "", time: "03:30", ctx)
        #expect(task(w, moved)?.scheduled == t.local(t.first, "03:30"))

        enter(&w, &ctx, at: t.local(t.second, "02:00"), t)
        #expect(task(w, early)?.scheduled == t.local(t.first, "03:00"))
        #expect(task(w, moved)?.scheduled == t.local(t.first, "03:30"))
        #expect(w.tasks.first { $0.templateID == template }?.scheduled == t.local(t.first, "03:00"))
        #expect(w.tasks.first { $0.title == "rolled" }?.scheduled == t.local(t.first, "13:00"))
    }

    /// A reset-time change from 00:00 to 20:00 shortens the next day to 20 hours: 21:00 falls
    /// nowhere in it, whether added in advance, added or re-timed.
    @Test(arguments: transitions)
    func aTimeNowhereInAShortenedDayIsRejected(_ t: Transition) throws {
        let ctx0 = Context(now: t.local(key(t.changedOn), "12:00"), zone: t.zone)
        var w = PetWorld(now: ctx0.now, zone: t.zone)
        var ctx = ctx0
        try w.setResetTime("20:00")
        expectError(.invalidArgument) { try w.addTask(title: "late", time: "21:00", day: "tomorrow", ctx) }
        ctx.now = t.local(t.first, "10:00")
        _ = w.closeDueDays(ctx)
        #expect(w.openDay == Day(key: t.first, start: t.local(t.first, "00:00"), end: t.local(t.first, "20:00")))
        expectError(.invalidArgument) { try w.addTask(title: "late", time: "21:00", ctx) }
        let id = try w.addTask(title: "evening", time: "19:59", ctx)
        expectError(.invalidArgument) { try w.updateTask(id: id, title: "", time: "20:00", ctx) }
        #expect(task(w, id)?.scheduled == t.local(t.first, "19:59"))
    }

    /// In a fold the second pass is not a second occurrence: on Berlin's 29-hour day (clocks back
    /// at 03:00 on 2026-10-25), 02:30 occurs at the fold's first pass and on the 26th.
    @Test func aFoldsSecondPassIsNotAnotherOccurrence() {
        let t = Self.transitions[4]
        let day = t.longDay
        #expect(day.end - day.start == 29 * hour)
        let first = at("2026-10-25T00:30:00Z")
        let second = at("2026-10-26T01:30:00Z")
        #expect(DayCalendar.instant(of: wall("02:30"), in: day, zone: t.zone) == first)
        #expect(
            DayCalendar.instant(of: wall("02:30"), in: day, zone: t.zone, closestTo: at("2026-10-25T01:40:00Z"))
                == first)
        #expect(
            DayCalendar.instant(of: wall("02:30"), in: day, zone: t.zone, closestTo: at("2026-10-26T01:00:00Z"))
                == second)
    }
}
