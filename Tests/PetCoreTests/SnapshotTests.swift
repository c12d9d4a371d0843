import Foundation
import PetCore
import Testing

/// The visible-snapshot rule (petprogress(7) §3.2) through `catchUp`, the way the daemon runs it.
@Suite struct SnapshotTests {
    func pet(_ i: Int, _ xp: Int) -> PetState { PetState(stageIndex: i, stageXP: xp) }

    /// The pet part of the entry at `ctx.now`.
    func shown(_ w: PetWorld, _ ctx: Context) -> (tick: Instant, index: Int, xp: Int) {
        let e = w.widgetEntry(ctx)
        guard case .int64(let date) = e["date"], case .int32(let i) = e["stage_index"],
            case .int32(let xp) = e["stage_xp"]
        else { return (-1, -1, -1) }
        return (date, Int(i), Int(xp))
    }

    @Test func completionMidHourIsInvisibleUntilTheNextTick() throws {
        var (w, ctx) = monday("10:20")
        w.openingPet = pet(2, 10)
        let first = w.catchUp(ctx, startingUp: true)
        #expect(first.snapshotChanged && !first.emitEntryChanged, "start-up stores a snapshot but never emits")
        #expect(w.snapshot == VisibleSnapshot(tick: at("2026-03-02T10:00:00Z"), pet: pet(2, 10)))
        #expect(first.nextWake == at("2026-03-02T11:00:00Z"))

        let id = try w.addTask(title: "write", time: "10:30", ctx)
        ctx.now = at("2026-03-02T10:31:00Z")
        #expect(!w.catchUp(ctx).snapshotChanged)
        try w.markDone(id: id, ctx)
        #expect(w.livePet(.builtIn) == pet(2, 12), "the data changes at once")
        ctx.now = at("2026-03-02T10:59:59Z")
        let between = w.catchUp(ctx)
        #expect(!between.snapshotChanged && !between.emitEntryChanged)
        #expect(shown(w, ctx) == (at("2026-03-02T10:00:00Z"), 2, 10), "the picture waits for the tick")

        ctx.now = at("2026-03-02T11:00:00Z")
        let tick = w.catchUp(ctx)
        #expect(tick.snapshotChanged && tick.emitEntryChanged)
        #expect(shown(w, ctx) == (at("2026-03-02T11:00:00Z"), 2, 12))
        ctx.now = at("2026-03-02T11:00:00Z")
        #expect(!w.catchUp(ctx).emitEntryChanged, "exactly once per tick")
    }

    @Test func undoBetweenTicksDoesNotChangeThePetPart() throws {
        var (w, ctx) = monday("09:50")
        w.openingPet = pet(0, 8)
        let id = try w.addTask(title: "run", time: "09:45", ctx)
        _ = w.catchUp(ctx, startingUp: true)
        try w.markDone(id: id, ctx)  // evolves: (0,10) → (1,0)
        ctx.now = at("2026-03-02T10:00:00Z")
        _ = w.catchUp(ctx)
        #expect(shown(w, ctx).index == 1)
        ctx.now = at("2026-03-02T10:15:00Z")
        _ = w.catchUp(ctx)
        try w.undo(id: id)
        #expect(w.livePet(.builtIn) == pet(0, 8), "undo reverses the evolution in the data")
        ctx.now = at("2026-03-02T10:59:00Z")
        #expect(!w.catchUp(ctx).snapshotChanged)
        #expect(shown(w, ctx) == (at("2026-03-02T10:00:00Z"), 1, 0), "but not what was published")
        // Restarts and reads change nothing either.
        ctx.now = at("2026-03-02T10:59:30Z")
        let restarted = w.catchUp(ctx, startingUp: true)
        #expect(!restarted.snapshotChanged && !restarted.emitEntryChanged)
        ctx.now = at("2026-03-02T11:00:00Z")
        _ = w.catchUp(ctx)
        #expect(shown(w, ctx) == (at("2026-03-02T11:00:00Z"), 0, 8))
    }

    /// Reset 00:00 is also a tick: the closeout dated 00:00 is in the 00:00 snapshot.
    @Test func closeoutAtAResetThatIsATickShowsAtThatTick() throws {
        var (w, ctx) = monday("23:10")
        w.openingPet = pet(1, 5)
        try w.addTask(title: "late one", time: "23:30", ctx)
        _ = w.catchUp(ctx, startingUp: true)
        ctx.now = at("2026-03-03T00:00:00Z")
        let r = w.catchUp(ctx)
        #expect(r.closeouts.count == 1 && r.snapshotChanged && r.emitEntryChanged)
        // missed −2 → (1,3); rate 0 → −3 → (1,0).
        #expect(w.snapshot == VisibleSnapshot(tick: at("2026-03-03T00:00:00Z"), pet: pet(1, 0)))
    }

    /// petprogress(7) §3.2's example: reset 04:30, the daemon starts at 04:40 after being off since the night
    /// before. The 04:00 snapshot excludes the 04:30 closeout, which shows at 05:00.
    @Test func resetAt0430StartAt0440() throws {
        var (w, ctx) = monday("22:00")
        try w.setResetTime("04:30")  // shapes the next day; Monday still ends at 00:00
        w.openingPet = pet(3, 20)
        try w.addTask(title: "tuesday plan", time: "03:00", day: "tomorrow", ctx)
        _ = w.catchUp(ctx, startingUp: true)
        let before = w.snapshot

        // Tuesday 04:40: only Monday has ended (at 00:00; the new reset time shapes Tuesday's
        // day, which runs to Wednesday 04:30).
        ctx.now = at("2026-03-03T04:40:00Z")
        let r = w.catchUp(ctx, startingUp: true)
        #expect(r.closeouts.map(\.date) == [at("2026-03-03T00:00:00Z")])
        #expect(!r.emitEntryChanged)
        #expect(w.snapshot?.tick == at("2026-03-03T04:00:00Z"))
        #expect(before?.tick == at("2026-03-02T22:00:00Z"))

        // Wednesday 04:40, the daemon off since Tuesday 04:40: Tuesday's day ended at 04:30.
        ctx.now = at("2026-03-04T04:40:00Z")
        let wed = w.catchUp(ctx, startingUp: true)
        #expect(wed.closeouts.map(\.date) == [at("2026-03-04T04:30:00Z")])
        // The task was missed: (3,20) −2 → (3,18); rate 0 → −3 → (3,15).
        #expect(w.livePet(.builtIn) == pet(3, 15))
        #expect(
            w.snapshot == VisibleSnapshot(tick: at("2026-03-04T04:00:00Z"), pet: pet(3, 20)),
            "04:00 excludes the 04:30 closeout")
        #expect(wed.nextWake == at("2026-03-04T05:00:00Z"))
        ctx.now = at("2026-03-04T05:00:00Z")
        let five = w.catchUp(ctx)
        #expect(
            five.emitEntryChanged && w.snapshot == VisibleSnapshot(tick: at("2026-03-04T05:00:00Z"), pet: pet(3, 15)))
    }

    /// Several days closed in one catch-up: the snapshot takes the pet after the closeouts dated
    /// at or before the latest tick and before the ones after it.
    @Test func catchUpPicksThePetBetweenCloseouts() throws {
        var (w, ctx) = monday("20:00")
        try w.setResetTime("04:30")
        w.openingPet = pet(5, 30)
        try w.addTask(title: "a", time: "21:00", ctx)
        _ = w.catchUp(ctx, startingUp: true)
        let petBefore = w.livePet(.builtIn)
        ctx.now = at("2026-03-04T04:45:00Z")
        let closeouts = w.closeDueDays(ctx)
        #expect(closeouts.map(\.date) == [at("2026-03-03T00:00:00Z"), at("2026-03-04T04:30:00Z")])
        let live = w.livePet(.builtIn)
        func asOf(_ t: String) -> PetState {
            SnapshotRule.pet(asOf: at(t), closeouts: closeouts, petBeforeCloseouts: petBefore, livePet: live)
        }
        #expect(asOf("2026-03-02T23:00:00Z") == petBefore)
        #expect(asOf("2026-03-03T00:00:00Z") == closeouts[0].petAfter)
        #expect(asOf("2026-03-04T04:00:00Z") == closeouts[0].petAfter)
        #expect(asOf("2026-03-04T05:00:00Z") == live)
        #expect(closeouts[0].petAfter != petBefore)
    }

    @Test func aBackwardClockNeverMovesTheSnapshotBack() throws {
        var (w, ctx) = monday("10:05")
        let id = try w.addTask(title: "x", time: "10:00", ctx)
        _ = w.catchUp(ctx, startingUp: true)
        try w.markDone(id: id, ctx)
        ctx.now = at("2026-03-02T11:00:00Z")
        _ = w.catchUp(ctx)
        let published = w.snapshot
        ctx.now = at("2026-03-02T08:30:00Z")  // the clock jumps back 2.5 hours
        let back = w.catchUp(ctx)
        #expect(!back.snapshotChanged && !back.emitEntryChanged)
        #expect(w.snapshot == published)
        #expect(back.nextWake == at("2026-03-02T12:00:00Z"), "the next snapshot is after the stored one")
        for t in ["2026-03-02T09:00:00Z", "2026-03-02T10:00:00Z", "2026-03-02T11:00:00Z"] {
            ctx.now = at(t)
            #expect(!w.catchUp(ctx).emitEntryChanged, "re-reaching \(t) is not a crossing")
            #expect(w.snapshot == published)
        }
        ctx.now = at("2026-03-02T12:00:00Z")
        #expect(w.catchUp(ctx).emitEntryChanged)
    }

    @Test func aForwardJumpOverTicksEmitsOnce() throws {
        var (w, ctx) = monday("10:05")
        _ = w.catchUp(ctx, startingUp: true)
        ctx.now = at("2026-03-02T15:20:00Z")
        let jump = w.catchUp(ctx)
        #expect(jump.emitEntryChanged && w.snapshot?.tick == at("2026-03-02T15:00:00Z"))
        #expect(!w.catchUp(ctx).emitEntryChanged)
    }

    /// A zone change to a +05:45 zone at 10:20 UTC: the latest tick there is 10:15 UTC, later than
    /// the stored 10:00 UTC one, so a tick was crossed.
    @Test func aZoneChangeThatCrossesATickEmitsOnce() throws {
        var (w, ctx) = monday("10:05")
        _ = w.catchUp(ctx, startingUp: true)
        ctx.now = at("2026-03-02T10:20:00Z")
        ctx.zone = zone("Asia/Kathmandu")
        let r = w.catchUp(ctx)
        #expect(r.emitEntryChanged && w.snapshot?.tick == at("2026-03-02T10:15:00Z"))
        #expect(r.nextWake == at("2026-03-02T11:15:00Z"))
        // Back to UTC at 10:30: the latest UTC tick (10:00) is earlier: nothing moves back.
        ctx.zone = .utc
        ctx.now = at("2026-03-02T10:30:00Z")
        #expect(!w.catchUp(ctx).emitEntryChanged)
        #expect(w.snapshot?.tick == at("2026-03-02T10:15:00Z"))
    }

    @Test func nextWakeIsTheDayEndWhenItComesFirst() throws {
        var (w, ctx) = monday("20:00")
        try w.setResetTime("04:30")
        ctx.now = at("2026-03-03T00:00:00Z")
        _ = w.catchUp(ctx)  // Tuesday opens; it ends Wednesday 04:30
        ctx.now = at("2026-03-04T04:10:00Z")
        #expect(w.catchUp(ctx).nextWake == at("2026-03-04T04:30:00Z"))
    }
}
