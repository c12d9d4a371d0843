/// What one catch-up did, and what the daemon must do about it.
public struct CatchUp: Hashable, Sendable {
    /// The closeouts that ran, oldest first (each: `TasksChanged` and a `WidgetEntry` change).
    public let closeouts: [Closeout]
    /// Whether a new visible snapshot was stored (the `WidgetEntry` property changed).
    public let snapshotChanged: Bool
    /// Whether `EntryChanged` must be emitted now, exactly once: a tick was crossed since the
    /// stored snapshot, and this is not start-up. Never on a backward jump.
    public let emitEntryChanged: Bool
    /// When the daemon must next wake on its own: the next tick or the open day's end, earlier first.
    public let nextWake: Instant
    /// Whether days are still due after this step: a bounded step (`catchUp(_:limit:)`) closed
    /// its `limit` and stopped; the snapshot rule has not run, and the caller commits this step
    /// and calls again.
    public var more: Bool = false
}

extension PetWorld {
    /// Brings the world up to date at `ctx.now`: runs the due closeouts (petprogress(7) §3.1), then the
    /// visible-snapshot rule (petprogress(7) §3.2). The daemon calls this on start (`startingUp: true`),
    /// before handling each message, at each timer wake and after a clock jump or zone change.
    /// With a `limit`, at most that many days are closed in this step (petprogress(7) §3.1, bounded
    /// steps): when more remain, the step returns with `more` set and nothing else done, so that
    /// memory does not grow with the days caught up.
    public mutating func catchUp(_ ctx: Context, startingUp: Bool = false, limit: Int = .max) -> CatchUp {
        // The live pet replays the day's awards. Only a closeout or a new snapshot needs it, so the
        // refresh of a message within one day and one tick (nearly every message) skips it: the
        // pet before the closeouts is taken only when one is due (`closeoutDue`, `closeDueDays`' condition),
        // and the snapshot rule asks for the pets only when it stores a snapshot.
        let petBefore = closeoutDue(ctx) ? livePet(ctx.stages) : nil
        let closeouts = closeDueDays(ctx, limit: limit)
        if closeoutDue(ctx) {
            return CatchUp(
                closeouts: closeouts, snapshotChanged: false, emitEntryChanged: false, nextWake: ctx.now, more: true)
        }
        let crossed = SnapshotRule.tickCrossed(stored: snapshot, now: ctx.now, zone: ctx.zone)
        let new = SnapshotRule.due(
            stored: snapshot, now: ctx.now, zone: ctx.zone, closeouts: closeouts,
            petBeforeCloseouts: petBefore ?? livePet(ctx.stages), livePet: livePet(ctx.stages))
        if let new { snapshot = new }
        let nextTick = SnapshotRule.nextDue(stored: snapshot, now: ctx.now, zone: ctx.zone)
        return CatchUp(
            closeouts: closeouts, snapshotChanged: new != nil, emitEntryChanged: crossed && !startingUp,
            nextWake: min(nextTick, openDay.end))
    }
}
