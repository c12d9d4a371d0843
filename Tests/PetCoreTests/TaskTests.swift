import PetCore
import Testing

/// A Monday in UTC, 08:00, with an empty state.
func monday(_ time: String = "08:00") -> (PetWorld, Context) {
    let ctx = Context(now: at("2026-03-02T\(time):00Z"), zone: .utc)
    return (PetWorld(now: ctx.now, zone: .utc), ctx)
}

func expectError(_ kind: PetError.Kind, _ body: () throws -> Void, sourceLocation: SourceLocation = #_sourceLocation) {
    do {
        try body()
        Issue.record("expected \(kind), got success", sourceLocation: sourceLocation)
    } catch let error as PetError {
        #expect(error.kind == kind, "\(error.message)", sourceLocation: sourceLocation)
    } catch {
        Issue.record("expected a PetError, got \(error)", sourceLocation: sourceLocation)
    }
}

@Suite struct TitleAndLimitTests {
    @Test func titles() throws {
        #expect(try TaskTitle.validate("  Write report \n") == "Write report")
        #expect(try TaskTitle.validate(String(repeating: "🐸", count: 200)).unicodeScalars.count == 200)
        for bad in [
            "", "   ", "\n\t", String(repeating: "a", count: 201), "a\nb", "tab\there", "bell\u{7}", "nul\u{0}x",
            String(repeating: "x", count: 1 << 20),
        ] {
            #expect(throws: PetError.self) { try TaskTitle.validate(bad) }
        }
        // Long input gives a short sentence.
        do { _ = try TaskTitle.validate(String(repeating: "x", count: 1 << 20)) } catch {
            #expect(error.message.count < 200)
        }
    }

    @Test func idsCarryTheDayKeyAndAreNeverReused() throws {
        var (w, ctx) = monday()
        let a = try w.addTask(title: "A", time: "09:00", ctx)
        let b = try w.addTask(title: "B", time: "10:00", day: "tomorrow", ctx)
        let t = try w.addTask(title: "T", time: "11:00", day: "tomorrow", repeat: "daily", ctx)
        #expect(a == "20260302-1")
        #expect(b == "20260303-2")
        #expect(t == "t-3")
        try w.deleteTask(id: a)
        #expect(try w.addTask(title: "C", time: "09:00", ctx) == "20260302-4")
    }

    @Test func twoHundredTasksADayAndAHundredTemplates() throws {
        var (w, ctx) = monday()
        for n in 0..<200 { try w.addTask(title: "t\(n)", time: "09:00", ctx) }
        let before = w
        expectError(.invalidArgument) { try w.addTask(title: "one more", time: "09:00", ctx) }
        #expect(w == before)
        for n in 0..<100 { try w.addTask(title: "r\(n)", time: "09:00", day: "tomorrow", repeat: "daily", ctx) }
        expectError(.invalidArgument) {
            try w.addTask(title: "r", time: "09:00", day: "tomorrow", repeat: "daily", ctx)
        }
    }

    @Test func badArgumentsChangeNothing() {
        var (w, ctx) = monday()
        let before = w
        expectError(.invalidArgument) { try w.addTask(title: "x", time: "9:00", ctx) }
        expectError(.invalidArgument) { try w.addTask(title: "", time: "09:00", ctx) }
        expectError(.invalidArgument) { try w.addTask(title: "x", time: "09:00", day: "yesterday", ctx) }
        expectError(.invalidArgument) { try w.addTask(title: "x", time: "09:00", repeat: "mon,mon", ctx) }
        expectError(.invalidArgument) { try w.addTask(title: "x", time: "09:00", repeat: "Mon", ctx) }
        expectError(.invalidArgument) { try w.addTask(title: "x", time: "09:00", repeat: "mon,", ctx) }
        #expect(w == before)
    }
}

@Suite struct OrderAndCompletionTests {
    @Test func orderIsEffectiveInstantThenCreation() throws {
        var (w, ctx) = monday()
        let late = try w.addTask(title: "late", time: "15:00", ctx)
        let first = try w.addTask(title: "first", time: "09:00", ctx)
        let second = try w.addTask(title: "second", time: "09:00", ctx)
        #expect(w.tasks.inDayOrder().map(\.id) == [first, second, late])
        #expect(w.nextTask?.id == first)
        // Snoozing the first past the second changes the order, not on-time judgement.
        ctx.now = at("2026-03-02T09:00:00Z")
        #expect(try w.snooze(id: first, ctx) == at("2026-03-02T09:15:00Z"))
        #expect(w.tasks.inDayOrder().map(\.id) == [second, first, late])
        #expect(w.nextTask?.id == second)
    }

    @Test func overdueAndNextIncludeOverdueTasks() throws {
        var (w, ctx) = monday("12:00")
        let past = try w.addTask(title: "past", time: "09:00", ctx)
        try w.addTask(title: "future", time: "15:00", ctx)
        let task = w.tasks.first { $0.id == past }!
        #expect(w.openDayRule.isOverdue(task, at: ctx.now))
        #expect(w.nextTask?.id == past)
    }

    /// Due from its effective instant; overdue only once it can no longer be done on time (past
    /// its time plus the grace) and any snooze has run out; never overdue when the grace reaches
    /// the day's end (petprogress(7) §3).
    @Test func dueThenOverdue() throws {
        var (w, ctx) = monday("08:00")
        let id = try w.addTask(title: "standup", time: "09:00", ctx)
        let evening = try w.addTask(title: "read", time: "23:30", ctx)
        let rule = w.openDayRule
        var task = try #require(w.tasks.first { $0.id == id })
        #expect(rule.dueAt(task) == at("2026-03-02T09:00:00Z"))
        #expect(rule.overdueAt(task) == at("2026-03-02T10:00:01Z"))
        for (time, due, overdue) in [
            ("08:59:59", false, false), ("09:00:00", true, false), ("09:10:00", true, false),
            ("10:00:00", true, false), ("10:00:01", true, true),
        ] {
            #expect(rule.isDue(task, at: at("2026-03-02T\(time)Z")) == due, "\(time)")
            #expect(rule.isOverdue(task, at: at("2026-03-02T\(time)Z")) == overdue, "\(time)")
        }
        // Ten minutes after its time, doing it still earns the on-time award: due, not overdue.
        ctx.now = at("2026-03-02T09:10:00Z")
        #expect(w.openDayRecords(ctx).first { $0.id == id }.map { [$0.due, $0.overdue] } == [true, false])
        // Snoozed past the grace, it is due again, and overdue, only when the snooze runs out.
        ctx.now = at("2026-03-02T09:55:00Z")
        try w.setSnoozeMinutes(30)
        _ = try w.snooze(id: id, ctx)
        task = try #require(w.tasks.first { $0.id == id })
        #expect(rule.dueAt(task) == at("2026-03-02T10:25:00Z"))
        #expect(rule.overdueAt(task) == at("2026-03-02T10:25:01Z"))
        #expect(!rule.isDue(task, at: ctx.now))
        // 23:30 plus an hour's grace is past the day's end: missed at the closeout, never overdue.
        let late = try #require(w.tasks.first { $0.id == evening })
        #expect(rule.overdueAt(late) == nil && !rule.isOverdue(late, at: at("2026-03-02T23:59:59Z")))
        #expect(w.openDayRecords(ctx).first { $0.id == evening }?.overdueAt == 0)
        // A smaller grace moves the instant.
        try w.setGraceMinutes(10)
        #expect(w.openDayRule.overdueAt(late) == at("2026-03-02T23:40:01Z"))
        // Done, it is neither.
        _ = try w.markDone(id: id, ctx)
        task = try #require(w.tasks.first { $0.id == id })
        #expect(rule.dueAt(task) == nil && rule.overdueAt(task) == nil)
    }

    @Test func onTimeWithinGraceOnEitherSideLateOutside() throws {
        var (w, ctx) = monday("06:00")
        let ids = try (0..<6).map { _ in try w.addTask(title: "t", time: "12:00", ctx) }
        let cases: [(String, Int)] = [
            ("2026-03-02T11:00:00Z", 2), ("2026-03-02T13:00:00Z", 2), ("2026-03-02T12:00:00Z", 2),
            ("2026-03-02T10:59:59Z", 1), ("2026-03-02T13:00:01Z", 1), ("2026-03-02T23:59:00Z", 1),
        ]
        for (id, (time, xp)) in zip(ids, cases) {
            ctx.now = at(time)
            #expect(try w.markDone(id: id, ctx) == xp, "\(time)")
        }
        try w.setGraceMinutes(0)
        let exact = try w.addTask(title: "exact", time: "23:59", ctx)
        #expect(try w.markDone(id: exact, ctx) == 2)
    }

    @Test func doneTwiceCountsOnce() throws {
        var (w, ctx) = monday()
        let id = try w.addTask(title: "t", time: "08:00", ctx)
        #expect(try w.markDone(id: id, ctx) == 2)
        let before = w
        expectError(.alreadyDone) { try w.markDone(id: id, ctx) }
        #expect(w == before)
        #expect(w.livePet(.builtIn) == PetState(stageIndex: 0, stageXP: 2))
    }

    @Test func markNextDoneAndNothingPending() throws {
        var (w, ctx) = monday()
        expectError(.nothingPending) { _ = try w.markNextDone(ctx) }
        expectError(.nothingPending) { _ = try w.snoozeNext(ctx) }
        let a = try w.addTask(title: "a", time: "08:30", ctx)
        let r = try w.markNextDone(ctx)
        #expect(r.id == a && r.xp == 2)
        expectError(.nothingPending) { _ = try w.markNextDone(ctx) }
    }

    @Test func undoReplaysAndCanReverseAnEvolution() throws {
        var (w, ctx) = monday()
        w.openingPet = PetState(stageIndex: 0, stageXP: 7)
        let a = try w.addTask(title: "a", time: "08:00", ctx)
        let b = try w.addTask(title: "b", time: "08:00", ctx)
        try w.markDone(id: a, ctx)
        #expect(w.livePet(.builtIn) == PetState(stageIndex: 0, stageXP: 9))
        try w.markDone(id: b, ctx)
        #expect(w.livePet(.builtIn) == PetState(stageIndex: 1, stageXP: 0))
        try w.undo(id: a)
        #expect(w.livePet(.builtIn) == PetState(stageIndex: 0, stageXP: 9), "the evolution is reversed")
        expectError(.notDone) { try w.undo(id: a) }
        #expect(
            w.tasks.first { $0.id == a }.map { $0.completedAt == nil && $0.xp == 0 && $0.completedSeq == 0 } == true)
    }

    @Test func snoozeCountsFromTheLaterOfNowAndEffectiveAndIsCapped() throws {
        var (w, ctx) = monday("08:00")
        let id = try w.addTask(title: "t", time: "10:00", ctx)
        #expect(try w.snooze(id: id, ctx) == at("2026-03-02T10:15:00Z"), "from its effective instant")
        #expect(try w.snooze(id: id, ctx) == at("2026-03-02T10:30:00Z"))
        ctx.now = at("2026-03-02T11:00:00Z")
        #expect(try w.snooze(id: id, ctx) == at("2026-03-02T11:15:00Z"), "from now when overdue")
        ctx.now = at("2026-03-02T23:50:00Z")
        #expect(try w.snooze(id: id, ctx) == at("2026-03-02T23:59:00Z"), "capped at day end − 60 s")
        let before = w
        expectError(.invalidArgument) { _ = try w.snooze(id: id, ctx) }
        #expect(w == before)
        // Done on time is still judged against 10:00, not the snoozed time.
        ctx.now = at("2026-03-02T10:30:00Z")
        #expect(try w.markDone(id: id, ctx) == 2)
        expectError(.alreadyDone) { _ = try w.snooze(id: id, ctx) }
    }

    @Test func timeChangeClearsSnoozeAndDoneTasksKeepTheirTime() throws {
        var (w, ctx) = monday()
        let id = try w.addTask(title: "t", time: "10:00", ctx)
        try w.snooze(id: id, ctx)
        try w.updateTask(id: id, title: "", time: "11:00", ctx)
        let t = w.tasks.first { $0.id == id }!
        #expect(t.snoozedUntil == nil && t.scheduled == at("2026-03-02T11:00:00Z") && t.title == "t")
        try w.markDone(id: id, ctx)
        try w.updateTask(id: id, title: "renamed", time: "", ctx)
        try w.updateTask(id: id, title: "", time: "11:00", ctx)  // the same time is no change
        expectError(.alreadyDone) { try w.updateTask(id: id, title: "", time: "12:00", ctx) }
        expectError(.alreadyDone) { try w.deleteTask(id: id) }
        #expect(w.tasks.first { $0.id == id }?.title == "renamed")
    }
}

@Suite struct ErrorOrderTests {
    @Test func notFoundThenReadOnlyThenInvalidThenDoneState() throws {
        var (w, ctx) = monday()
        let done = try w.addTask(title: "d", time: "08:00", ctx)
        try w.markDone(id: done, ctx)
        expectError(.notFound) { try w.updateTask(id: "nope", title: "", time: "bad", ctx) }
        expectError(.notFound) { try w.markDone(id: "20260302-99", ctx) }
        expectError(.invalidArgument) { try w.updateTask(id: done, title: "", time: "25:00", ctx) }
        expectError(.alreadyDone) { try w.updateTask(id: done, title: "", time: "09:00", ctx) }
        // Close Monday: its ids become read-only, whatever else is wrong with the request.
        ctx.now = at("2026-03-03T08:00:00Z")
        _ = w.closeDueDays(ctx)
        expectError(.readOnlyDay) { try w.updateTask(id: done, title: "", time: "bad", ctx) }
        expectError(.readOnlyDay) { try w.markDone(id: done, ctx) }
        expectError(.readOnlyDay) { try w.undo(id: done) }
        expectError(.readOnlyDay) { try w.deleteTask(id: done) }
        expectError(.notFound) { try w.deleteTask(id: "20260302-999") }
    }

    @Test func tomorrowsTasksAndTemplatesCannotBeDoneUndoneOrSnoozed() throws {
        var (w, ctx) = monday()
        let tomorrow = try w.addTask(title: "tm", time: "09:00", day: "tomorrow", ctx)
        let template = try w.addTask(title: "tp", time: "09:00", repeat: "daily", ctx)
        for id in [tomorrow, template] {
            expectError(.invalidArgument) { try w.markDone(id: id, ctx) }
            expectError(.invalidArgument) { try w.undo(id: id) }
            expectError(.invalidArgument) { _ = try w.snooze(id: id, ctx) }
        }
        #expect(!w.tasks.contains { $0.id == tomorrow })
        try w.updateTask(id: tomorrow, title: "tm2", time: "10:00", ctx)
        #expect(w.tomorrow.first?.scheduled == at("2026-03-03T10:00:00Z"))
        try w.deleteTask(id: tomorrow)
        #expect(w.tomorrow.isEmpty)
    }

    @Test func tomorrowsTimesAreCheckedAgainstTheProjectedDay() throws {
        var (w, ctx) = monday()
        try w.setResetTime("23:00")  // tomorrow runs 00:00–23:00
        expectError(.invalidArgument) { try w.addTask(title: "x", time: "23:30", day: "tomorrow", ctx) }
        #expect(try w.addTask(title: "x", time: "23:30", ctx).hasPrefix("20260302-"), "today still ends at midnight")
    }
}

@Suite struct TemplateTests {
    @Test func todayGetsAnInstanceTomorrowDoesNot() throws {
        var (w, ctx) = monday()
        let daily = try w.addTask(title: "stretch", time: "09:00", repeat: "daily", ctx)
        let wedOnly = try w.addTask(title: "bins", time: "19:00", repeat: "wed", ctx)
        let fromTomorrow = try w.addTask(title: "read", time: "21:00", day: "tomorrow", repeat: "weekdays", ctx)
        #expect(w.tasks.map(\.templateID) == [daily], "only the matching template for today")
        #expect(w.tasks.first?.repeatRule == .daily)
        #expect(w.templates.map(\.id) == [daily, wedOnly, fromTomorrow])
        // Tuesday opens: daily and weekdays.
        ctx.now = at("2026-03-03T08:00:00Z")
        _ = w.closeDueDays(ctx)
        #expect(Set(w.tasks.compactMap(\.templateID)) == [daily, fromTomorrow])
        // Wednesday: all three.
        ctx.now = at("2026-03-04T08:00:00Z")
        _ = w.closeDueDays(ctx)
        #expect(Set(w.tasks.compactMap(\.templateID)) == [daily, wedOnly, fromTomorrow])
    }

    /// Future days, and the open day's copy while it is the template's own (petprogress(7) §3).
    @Test func editingATemplateChangesFutureDaysAndTodaysUntouchedCopy() throws {
        var (w, ctx) = monday()
        let t = try w.addTask(title: "stretch", time: "09:00", repeat: "daily", ctx)
        try w.updateTask(id: t, title: "yoga", time: "07:00", ctx)
        #expect(w.tasks.first?.title == "yoga" && w.tasks.first?.scheduled == at("2026-03-02T07:00:00Z"))
        ctx.now = at("2026-03-03T08:00:00Z")
        _ = w.closeDueDays(ctx)
        #expect(w.tasks.first?.title == "yoga" && w.tasks.first?.scheduled == at("2026-03-03T07:00:00Z"))
        // Editing the instance changes that day only; deleting the template stops future ones.
        let instance = w.tasks[0].id
        try w.updateTask(id: instance, title: "long yoga", time: "", ctx)
        try w.deleteTask(id: t)
        #expect(w.tasks.count == 1)
        ctx.now = at("2026-03-04T08:00:00Z")
        _ = w.closeDueDays(ctx)
        #expect(w.tasks.isEmpty)
    }

    @Test func repeatRules() throws {
        #expect(try Repeat.parse("") == nil)
        #expect(try Repeat.parse("sun,mon") == .days([.monday, .sunday]))
        #expect(try Repeat.parse("weekdays")?.matches(.saturday) == false)
        #expect(try Repeat.parse("weekdays")?.matches(.friday) == true)
        #expect(try Repeat.parse("sat,sun")?.description == "sat,sun")
    }
}
