import PetCore
import PetStore

/// The refresh every message and timer wake begins with (petprogress(7) §3.1, §3.2): one clock
/// read, the closeouts and the snapshot it is due, saved in bounded steps and announced.
extension PetService {
    /// Reads the clock, runs due closeouts and the snapshot rule, persists what they changed, and
    /// emits their signals (`TasksChanged` + `WidgetEntry` per closeout; `EntryChanged` once if a
    /// tick was crossed, never at start-up). On a storage failure nothing is adopted, so memory
    /// still matches the disk, and changes are refused; the next request, or the timer within a
    /// minute, tries again.
    @discardableResult
    public func refresh(startingUp: Bool = false) -> Bool {
        now = environment.now()
        return bringUpToDate(startingUp: startingUp)
    }

    /// The days a catch-up closes in one durable step (petprogress(7) §3.1): at the per-day task
    /// limit a step holds at most 6,200 tasks, whatever the number of days caught up.
    static let catchUpStep = 31

    /// The refresh at `now`: what it is due, persisted and announced, in bounded steps. A catch-up
    /// over more than one day first keeps the state as it was (`state-before-<open day>.json`);
    /// one resumed after a crash between steps (its open day was never live) does not again.
    private func bringUpToDate(startingUp: Bool) -> Bool {
        let ctx = context
        if world.catchUpSpansDays(ctx), world.openDayLive {
            if transaction != nil {
                commit()
                return bringUpToDate(startingUp: startingUp)
            }
            do {
                try environment.keepBeforeCatchUp(world)
                log("kept the state before catching up from \(world.openDay.key) as a snapshot")
            } catch {
                log("could not keep the state before catching up (\(error)); will retry at the next request or within a minute")
                catchUpFailure = error.message
                environment.wake(ctx.now + Self.retryAfterStorageFailure)
                return false
            }
        }
        while true {
            switch catchUpStep(ctx, startingUp: startingUp) {
            case .failed: return false
            case .done: return true
            case .more: continue
            }
        }
    }

    private enum StepOutcome { case done, more, failed }

    /// One bounded step of the refresh: at most `catchUpStep` days closed, persisted, adopted and
    /// announced; the snapshot rule runs in the step that closes the last due day.
    private func catchUpStep(_ ctx: Context, startingUp: Bool) -> StepOutcome {
        var next = world
        let caught = next.catchUp(ctx, startingUp: startingUp, limit: Self.catchUpStep)
        catchUpFailure = nil
        if caught.closeouts.isEmpty && !caught.snapshotChanged {
            environment.wake(caught.nextWake)
            return .done
        }
        if transaction != nil {
            // The transaction's calls are saved and answered first (or run again one at a time), so the
            // commit below follows them on disk and its signals follow their replies.
            commit()
            return catchUpStep(ctx, startingUp: startingUp)
        }
        do {
            if caught.closeouts.isEmpty {
                try environment.save(next)
            } else {
                try environment.closeDays(caught.closeouts, next)
            }
        } catch {
            log(
                "could not save the catch-up (\(error)); \(error.stateReplaced ? "the new state is on disk" : "will retry at the next request or within a minute")"
            )
            // Only adopt what the disk holds: the new state only when the file was already replaced.
            guard error.stateReplaced else {
                catchUpFailure = error.message
                environment.wake(
                    caught.more ? ctx.now + Self.retryAfterStorageFailure
                        : min(caught.nextWake, ctx.now + Self.retryAfterStorageFailure))
                return .failed
            }
        }
        world = next
        for closeout in caught.closeouts { logCloseout(closeout) }
        if caught.snapshotChanged, let snap = world.snapshot {
            log(
                "tick \(zone.localTime(at: snap.tick).date) \(zone.wallTime(at: snap.tick)): pet shows \(stages.stage(snap.pet.stageIndex).name) \(snap.pet.stageXP) XP"
            )
        }
        if caught.more {
            // The signals of a step's closeouts go out with the last step's: each is then the
            // entry as it finally stands, and a long catch-up does not flood the bus.
            pendingCloseoutSignals += caught.closeouts.count
            return .more
        }
        let entry = world.widgetEntry(ctx, iconPath: iconPath)
        for _ in 0..<(pendingCloseoutSignals + caught.closeouts.count) {
            emit(.tasksChanged)
            emit(.widgetEntryChanged(entry))
        }
        pendingCloseoutSignals = 0
        if caught.snapshotChanged && caught.closeouts.isEmpty { emit(.widgetEntryChanged(entry)) }
        if caught.emitEntryChanged { emit(.entryChanged(entry)) }
        environment.wake(caught.nextWake)
        return .done
    }

    private func logCloseout(_ closeout: Closeout) {
        guard let record = closeout.record else {
            log("closed \(closeout.day.key) (no tasks, neutral)")
            return
        }
        let pet = closeout.petAfter
        log(
            "closed \(closeout.day.key)\(record.rest ? " (rest day)" : ""): \(record.done) of \(record.total) done, \(record.xpChange >= 0 ? "+" : "")\(record.xpChange) XP, pet now \(stages.stage(pet.stageIndex).name) \(pet.stageXP) XP"
        )
    }
}
