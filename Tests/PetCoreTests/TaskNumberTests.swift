import PetCore
import Testing

/// Per-day task numbers (petprogress(7) §3): 1, 2, 3… in the order tasks were added to their day,
/// never reused within it; the open day's instances and rolled copies when it opens, after the
/// tasks added for it in advance, which keep theirs.
@Suite struct TaskNumberTests {
    func number(_ w: PetWorld, _ id: String) -> Int? {
        (w.tasks + w.tomorrow).first { $0.id == id }?.number
    }

    @Test func oneTwoThreeInTheOrderAddedAndNeverReusedWithinTheDay() throws {
        var (w, ctx) = monday()
        let a = try w.addTask(title: "A", time: "15:00", ctx)
        let b = try w.addTask(title: "B", time: "09:00", ctx)
        let c = try w.addTask(title: "C", time: "12:00", ctx)
        #expect([a, b, c].map { number(w, $0) } == [1, 2, 3], "the order added, not the time")
        try w.deleteTask(id: c)
        let d = try w.addTask(title: "D", time: "10:00", ctx)
        #expect(number(w, d) == 4, "3 was deleted and is not handed out again")
        try w.deleteTask(id: b)
        #expect(w.tasks.map(\.number).sorted() == [1, 4])
        // Tomorrow counts on its own; a repeating task's copy today takes today's next number.
        let x = try w.addTask(title: "X", time: "09:00", day: "tomorrow", ctx)
        let y = try w.addTask(title: "Y", time: "08:00", day: "tomorrow", ctx)
        #expect([x, y].map { number(w, $0) } == [1, 2])
        let t = try w.addTask(title: "Stretch", time: "07:00", repeat: "daily", ctx)
        #expect(w.tasks.first { $0.templateID == t }?.number == 5)
        // Doing, undoing and snoozing keep a task's number.
        try w.markDone(id: d, ctx)
        _ = try w.snooze(id: a, ctx)
        try w.undo(id: d)
        #expect(number(w, d) == 4 && number(w, a) == 1)
    }

    /// Tuesday opens: Dentist (added on Monday as +1) keeps 1, then the repeating copy and the
    /// rolled copy, in that order; what the user adds next follows.
    @Test func aDayOpensWithTheTasksAddedForItThenCopiesThenTheUsers() throws {
        var (w, ctx) = monday()
        w.setRollover(true)
        try w.addTask(title: "Report", time: "16:00", ctx)
        try w.addTask(title: "Stretch", time: "07:00", repeat: "daily", ctx)
        try w.addTask(title: "Dentist", time: "09:30", day: "tomorrow", ctx)
        ctx.now = at("2026-03-03T08:00:00Z")
        _ = w.closeDueDays(ctx)
        #expect(w.tasks.map(\.title) == ["Dentist", "Stretch", "Report"])
        #expect(w.tasks.map(\.number) == [1, 2, 3])
        let later = try w.addTask(title: "Call", time: "11:00", ctx)
        #expect(number(w, later) == 4)
        #expect(try w.addTask(title: "Plan", time: "08:00", day: "tomorrow", ctx).isEmpty == false)
        #expect(w.tomorrow.map(\.number) == [1], "the new next day counts from 1")
    }

    /// A repeating task's copy is 1 every day it is the day's only task, catch-up days included.
    @Test func repeatingCopiesAreNumberedOnEachDay() throws {
        var (w, ctx) = monday()
        try w.addTask(title: "Stretch", time: "07:00", repeat: "daily", ctx)
        ctx.now = at("2026-03-06T08:00:00Z")  // Friday: four days closed in one catch-up
        let closeouts = w.closeDueDays(ctx)
        #expect(closeouts.count == 4)
        #expect(closeouts.compactMap { $0.record?.tasks.map(\.number) } == [[1], [1], [1], [1]])
        #expect(w.tasks.map(\.number) == [1])
    }

    /// A template edit reaches the open day's copy that is not done and was not edited on its own.
    @Test func aTemplateEditReachesTodaysUntouchedCopyOnly() throws {
        var (w, ctx) = monday()
        let t = try w.addTask(title: "Stretch", time: "09:00", repeat: "daily", ctx)
        _ = try w.snooze(id: w.tasks[0].id, ctx)
        try w.updateTask(id: t, title: "Yoga", time: "10:00", ctx)
        #expect(w.tasks[0].title == "Yoga" && w.tasks[0].time == wall("10:00"))
        #expect(w.tasks[0].scheduled == at("2026-03-02T10:00:00Z") && w.tasks[0].snoozedUntil == nil)
        #expect(w.tasks[0].number == 1)
        // Edited on its own: the template's next edit leaves it.
        try w.updateTask(id: w.tasks[0].id, title: "Long yoga", time: "", ctx)
        try w.updateTask(id: t, title: "Pilates", time: "", ctx)
        #expect(w.tasks[0].title == "Long yoga")
        // Done: it stays as it was done.
        var (v, vctx) = monday()
        let u = try v.addTask(title: "Stretch", time: "07:50", repeat: "daily", vctx)
        try v.markDone(id: v.tasks[0].id, vctx)
        try v.updateTask(id: u, title: "Yoga", time: "", vctx)
        #expect(v.tasks[0].title == "Stretch")
        // On a day its copy arrived on by itself, the edit reaches it and touches nothing (§3.1).
        vctx.now = at("2026-03-03T08:00:00Z")
        _ = v.closeDueDays(vctx)
        #expect(!v.isTouched(v.openDay.key))
        try v.updateTask(id: u, title: "", time: "08:15", vctx)
        #expect(v.tasks[0].time == wall("08:15") && !v.isTouched(v.openDay.key))
        try v.markDone(id: v.tasks[0].id, vctx)
        // Deleting the template keeps today's copy.
        try v.deleteTask(id: u)
        #expect(v.tasks.count == 1 && v.templates.isEmpty)
    }

    /// The timeline's next day holds rollover's copies too, numbered after its own tasks and
    /// repeating copies (petprogress(7) §3.2).
    @Test func theTimelineShowsRolloverCopies() throws {
        var (w, ctx) = monday("20:10")
        try w.addTask(title: "Report", time: "16:00", ctx)
        try w.addTask(title: "Done already", time: "17:00", ctx)
        try w.markDone(id: w.tasks[1].id, ctx)
        try w.addTask(title: "Dentist", time: "09:30", day: "tomorrow", ctx)
        try w.addTask(title: "Stretch", time: "07:00", day: "tomorrow", repeat: "daily", ctx)
        let off = w.timeline(ctx).first { $0.dayKey == "2026-03-03" }
        #expect(off?.tasksTotal == 2)
        w.setRollover(true)
        let entry = try #require(w.timeline(ctx).first { $0.dayKey == "2026-03-03" })
        #expect(entry.tasksTotal == 3)
        #expect(entry.upcoming.map(\.title) == ["Stretch", "Dentist", "Report"])
        #expect(entry.upcoming.map(\.number) == [2, 1, 3])
        // What the day then really gets is what was projected.
        ctx.now = at("2026-03-03T08:00:00Z")
        _ = w.closeDueDays(ctx)
        #expect(w.tasks.inDayOrder().map { "\($0.number) \($0.title)" } == ["2 Stretch", "1 Dentist", "3 Report"])
    }
}
