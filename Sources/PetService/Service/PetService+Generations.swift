import PetBus
import PetCore
import PetStore

/// `ListGenerations`, `Restore` and the clock that went back (petprogress(7) §3.1, §5, §6.1).
extension PetService {
    /// The clock reads more than this before the open day's start: `clock_behind`.
    static let clockBehindSlack: Instant = 3600

    /// Whether the clock reads more than an hour before the open day's start, unacknowledged.
    var clockIsBehind: Bool {
        now < world.openDay.start - Self.clockBehindSlack && clockBehindAcknowledged != world.openDay.key
    }

    /// `GetStatus`'s part about the clock: the flag, the clock's day, the snapshot to restore, and
    /// one sentence among the problems.
    func addClockBehind(to status: inout ServiceStatus) {
        guard clockIsBehind else { return }
        let clockDay = zone.localDate(at: now)
        status.clockBehind = true
        status.clockDay = clockDay.description
        let snapshot =
            ((try? environment.generations()) ?? []).first {
                $0.kind == .beforeCatchUp && $0.world.openDay.key < world.openDay.key
            }?.name ?? ""
        status.clockBehindSnapshot = snapshot
        let remedy =
            snapshot.isEmpty
            ? "acknowledge it to keep the days as closed"
            : "restore \(snapshot) (petctl restore \(snapshot)) to go back to before they closed, or acknowledge it to keep them"
        status.problems.append(
            "The clock reads \(clockDay), more than an hour before the open day \(world.openDay.key) began: days may have closed while it was ahead. Nothing was changed; \(remedy)."
        )
    }

    /// `ListGenerations`: the snapshots, newest first, their pets by the table in force.
    func listGenerations() throws(PetError) -> [GenerationRecord] {
        do {
            return try environment.generations().map(record)
        } catch {
            throw PetError(.storageFailure, "The snapshots could not be listed (\(error.message)).")
        }
    }

    private func record(_ g: Generation) -> GenerationRecord {
        let pet = stages.clamp(g.world.livePet(stages))
        return GenerationRecord(
            name: g.name, kind: g.kind.rawValue, lastClosedDay: g.world.lastClosedDay?.description ?? "",
            openDay: g.world.openDay.key.description, writtenAt: g.writtenAt,
            stageName: stages.stage(pet.stageIndex).name, stageIndex: pet.stageIndex, stageXP: pet.stageXP)
    }

    /// `Restore` (petprogress(7) §5): the store becomes the generation `name`, the history after it
    /// and the replaced data set aside in one durable step; then the days since are caught up as
    /// usual. `dryRun` says what would change and changes nothing.
    func restore(name: String, dryRun: Bool) throws(PetError) -> RestoreSummary {
        let shown = name.count > 40 ? String(name.prefix(40)) + "…" : name
        let generation: Generation
        do {
            guard let found = try environment.generation(name) else {
                throw PetError(
                    .notFound,
                    "There is no snapshot named \"\(shown)\"; petctl generations lists the ones that can be restored.")
            }
            generation = found
        } catch let error as PetError {
            throw error
        } catch {
            throw PetError(.storageFailure, "The snapshot could not be read (\(error)).")
        }
        if let problem = generation.world.boundsProblem() {
            throw PetError(.invalidArgument, "The snapshot \(shown) holds a value out of bounds (\(problem)); nothing was changed.")
        }
        let before = stages.clamp(world.livePet(stages))
        let after = stages.clamp(generation.world.livePet(stages))
        let outcome: RestoreOutcome
        do {
            outcome = try environment.restoreGeneration(generation, now, dryRun)
        } catch {
            log("could not restore \(name): \(error)")
            throw PetError(.storageFailure, "The snapshot could not be restored (\(error.message)); nothing was changed.")
        }
        var summary = RestoreSummary(
            restored: !dryRun, name: name, keptIn: outcome.keptIn, daysSetAside: outcome.daysSetAside,
            firstDaySetAside: outcome.firstDaySetAside?.description ?? "",
            lastDaySetAside: outcome.lastDaySetAside?.description ?? "",
            openDay: generation.world.openDay.key.description,
            lastClosedDay: generation.world.lastClosedDay?.description ?? "",
            stageNameBefore: stages.stage(before.stageIndex).name, stageIndexBefore: before.stageIndex,
            stageXPBefore: before.stageXP, stageNameAfter: stages.stage(after.stageIndex).name,
            stageIndexAfter: after.stageIndex, stageXPAfter: after.stageXP)
        guard !dryRun, let loaded = outcome.loaded else { return summary }
        for problem in loaded.problems { log(problem) }
        guard case .state(let restored) = loaded.start else {
            throw PetError(
                .storageFailure, "The restored state could not be read back; the previous data is in \(outcome.keptIn).")
        }
        world = restored
        clockBehindAcknowledged = nil
        log(
            "restored \(name) (open day \(restored.openDay.key)); \(outcome.daysSetAside) days of history set aside with the previous data in \(outcome.keptIn)"
        )
        summary.keptIn = outcome.keptIn
        // As at a start: the days since close now, as away days when nothing touched them.
        refresh()
        emit(.tasksChanged)
        emit(.settingsChanged(world.settings))
        emit(.widgetEntryChanged(widgetEntry()))
        return summary
    }
}
