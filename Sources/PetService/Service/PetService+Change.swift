import PetCore
import PetStore

/// A request's change (petprogress(7) §5): computed on a copy, refused when the loader would
/// refuse it, made durable, and only then adopted and announced.
extension PetService {
    /// Applies a change to a copy of the world, makes it durable, then adopts it. Throws the
    /// rule's error (nothing changes) or `StorageFailure` (nothing changes either, unless the new
    /// state file was already in place: then memory and applets follow the disk). A world the
    /// refresh could not bring up to date takes no change.
    func mutate<T>(_ change: (inout PetWorld, Context) throws(PetError) -> T) throws(PetError) -> T {
        if let catchUpFailure {
            throw PetError(
                .storageFailure, "The day could not be brought up to date (\(catchUpFailure)); nothing was changed.")
        }
        let ctx = context
        var next = world
        let result = try change(&next, ctx)
        try Self.checkBounds(next)
        if let transaction {
            // Saved by `commit`, before this call's reply or signals are sent.
            transaction.changed = true
            adoptChange(next, ctx)
            return result
        }
        do {
            try environment.save(next)
        } catch {
            log("could not save a change: \(error)")
            guard error.stateReplaced else {
                throw PetError(
                    .storageFailure, "The change could not be saved (\(error.message)); nothing was changed.")
            }
            // The file was replaced but the directory fsync failed: the change is on disk.
            adoptChange(next, ctx)
            throw PetError(.storageFailure, "The change was written but may not survive a crash (\(error.message)).")
        }
        adoptChange(next, ctx)
        return result
    }

    /// Refuses a changed world that the store's loader would refuse (petprogress(7) §5, "The same
    /// bounds on every write"): a date out of the years 1970–9999 is the request's fault
    /// (`InvalidArgument`), an internal counter past its bound a `StorageFailure` naming it.
    static func checkBounds(_ next: PetWorld) throws(PetError) {
        guard let problem = next.boundsProblem() else { return }
        switch problem.kind {
        case .date:
            throw PetError(
                .invalidArgument,
                "That would take a date past what the store keeps (\(problem)); nothing was changed.")
        case .counter:
            throw PetError(
                .storageFailure,
                "That would take a stored value past its bound (\(problem)); nothing was changed.")
        }
    }

    /// Makes a saved change the world, announcing a change to the entry's task part: the open
    /// day's tasks, whether it is a rest day, and the grace when a task is pending (the grace moves
    /// its overdue flag and instant).
    private func adoptChange(_ next: PetWorld, _ ctx: Context) {
        let graceMoved =
            next.settings.graceMinutes != world.settings.graceMinutes && next.tasks.contains { !$0.isDone }
        let tasksChanged = next.tasks != world.tasks || next.openDayIsRest != world.openDayIsRest || graceMoved
        world = next
        if tasksChanged {
            emit(.tasksChanged)
            emit(.widgetEntryChanged(world.widgetEntry(ctx, iconPath: iconPath)))
        }
    }
}
