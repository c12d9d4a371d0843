/// What the pet part of the widget shows: the live pet state as of one tick (petprogress(7) §3.2).
///
/// Stored in the state file, so it survives restarts; it changes only when a later tick is
/// reached, never because of completions, undo, restarts or reads in between.
public struct VisibleSnapshot: Hashable, Sendable {
    /// The tick the snapshot was taken for (the entry's `date`).
    public let tick: Instant
    /// The live pet as of that tick.
    public let pet: PetState

    public init(tick: Instant, pet: PetState) {
        self.tick = tick
        self.pet = pet
    }
}

/// The visible-snapshot rule of petprogress(7) §3.2 as pure functions.
///
/// The daemon is the only writer and runs due closeouts and this rule before every message and at
/// every wake, so at any call the live pet holds nothing that happened after the latest tick
/// except closeouts that have just run — and those are passed in with their dates.
public enum SnapshotRule {
    /// The pet as of `tick`: the live state after the closeouts dated at or before the tick and
    /// before any dated after it. `closeouts` are the ones that just ran, in order;
    /// `petBeforeCloseouts` is the live pet before the first of them.
    /// Both pets are evaluated only when chosen: computing the live pet replays the day's awards.
    public static func pet(
        asOf tick: Instant, closeouts: [Closeout], petBeforeCloseouts: @autoclosure () -> PetState,
        livePet: @autoclosure () -> PetState
    ) -> PetState {
        guard let firstLater = closeouts.firstIndex(where: { $0.date > tick }) else { return livePet() }
        return firstLater == 0 ? petBeforeCloseouts() : closeouts[firstLater - 1].petAfter
    }

    /// The snapshot to store now, or nil when the stored one stays: nil unless the latest tick at
    /// or before `now` (in `zone`) is later than the stored snapshot's tick. A backward clock
    /// therefore never moves the snapshot back. The pets are evaluated only for a snapshot stored.
    public static func due(
        stored: VisibleSnapshot?, now: Instant, zone: Zone, closeouts: [Closeout],
        petBeforeCloseouts: @autoclosure () -> PetState, livePet: @autoclosure () -> PetState
    ) -> VisibleSnapshot? {
        let tick = Ticks.latest(atOrBefore: now, zone: zone)
        if let stored, stored.tick >= tick { return nil }
        let pet = pet(
            asOf: tick, closeouts: closeouts, petBeforeCloseouts: petBeforeCloseouts(), livePet: livePet())
        return VisibleSnapshot(tick: tick, pet: pet)
    }

    /// Whether a tick was crossed: the latest tick is later than the stored snapshot's. False with
    /// no stored snapshot (a first start) and after any backward jump.
    public static func tickCrossed(stored: VisibleSnapshot?, now: Instant, zone: Zone) -> Bool {
        guard let stored else { return false }
        return Ticks.latest(atOrBefore: now, zone: zone) > stored.tick
    }

    /// When the next snapshot is due: the first tick after both `now` and the stored snapshot's
    /// tick (after a backward jump the clock must pass the snapshot again first).
    public static func nextDue(stored: VisibleSnapshot?, now: Instant, zone: Zone) -> Instant {
        Ticks.next(after: max(now, stored?.tick ?? now), zone: zone)
    }
}
