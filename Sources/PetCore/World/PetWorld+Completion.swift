/// Done, undo and snooze on the open day's tasks (petprogress(7) §3).
extension PetWorld {
    /// Marks a task of the open day done at `ctx.now`; returns its award: 2 on time (within the
    /// grace window of its scheduled instant, either side), 1 early or late.
    @discardableResult
    public mutating func markDone(id: String, _ ctx: Context) throws(PetError) -> Int {
        let i = try locateActionable(id, verb: "marked done")
        guard !tasks[i].isDone else {
            throw PetError(.alreadyDone, "Task \(quoted(id)) is already done; it counts once.")
        }
        let onTime = abs(ctx.now - tasks[i].scheduled) <= Int64(settings.graceMinutes) * 60
        let xp = PetEvent.completion(xp: onTime ? 2 : 1).xp
        tasks[i].completedSeq = recordMutation()
        tasks[i].completedAt = ctx.now
        tasks[i].xp = xp
        touch(openDay.key)
        return xp
    }

    /// Marks the next task done; `NothingPending` when every task is done.
    public mutating func markNextDone(_ ctx: Context) throws(PetError) -> (id: String, xp: Int) {
        let id = try nextTaskID()
        let xp = try markDone(id: id, ctx)
        return (id, xp)
    }

    /// Makes a done task of the open day pending again. The live pet follows by replay, exactly
    /// as if that completion never happened.
    public mutating func undo(id: String) throws(PetError) {
        let i = try locateActionable(id, verb: "undone")
        guard tasks[i].isDone else {
            throw PetError(.notDone, "Task \(quoted(id)) is not done, so there is nothing to undo.")
        }
        tasks[i].completedAt = nil
        tasks[i].completedSeq = 0
        tasks[i].xp = 0
        touch(openDay.key)
        _ = recordMutation()
    }

    /// Snoozes a pending task of the open day: until `min(max(now, effective) + snooze, end − 60 s)`.
    /// Returns the new snoozed-until instant.
    @discardableResult
    public mutating func snooze(id: String, _ ctx: Context) throws(PetError) -> Instant {
        let i = try locateActionable(id, verb: "snoozed")
        let task = tasks[i]
        guard !task.isDone else {
            throw PetError(.alreadyDone, "Task \(quoted(id)) is done; there is nothing to snooze.")
        }
        let until = min(max(ctx.now, task.effective) + Int64(settings.snoozeMinutes) * 60, openDay.end - 60)
        guard until > task.effective else {
            throw PetError(.invalidArgument, "It is too late in the day to snooze \(quoted(task.title)).")
        }
        tasks[i].snoozedUntil = until
        touch(openDay.key)
        _ = recordMutation()
        return until
    }

    /// Snoozes the next task; `NothingPending` when every task is done.
    public mutating func snoozeNext(_ ctx: Context) throws(PetError) -> (id: String, until: Instant) {
        let id = try nextTaskID()
        let until = try snooze(id: id, ctx)
        return (id, until)
    }

    private func nextTaskID() throws(PetError) -> String {
        guard let next = nextTask else {
            throw PetError(.nothingPending, "Nothing is pending today; add a task first.")
        }
        return next.id
    }
}
