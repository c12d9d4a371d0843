import PetBus
import PetCore

/// The pet's big moments said in one line: an evolution or a de-evolution that a request caused,
/// found by comparing the live pet (`GetPet`) before and after it.
enum PetMoment {
    /// `The pet evolved: Frog → Hermit Crab. The panel shows it at 15:00.` (`de-evolved` the other
    /// way), or nil when the form did not change. `panelAt` is the next top of the hour, shown on
    /// `clock`.
    static func line(before: PetView, after: PetView, panelAt: Instant, clock: ClockStyle) -> String? {
        guard before.stageIndex != after.stageIndex else { return nil }
        let (from, to, at) = (PetText.name(before), PetText.name(after), clock.time(panelAt))
        return after.stageIndex > before.stageIndex
            ? tr("The pet evolved: %s → %s. The panel shows it at %s.", from, to, at)
            : tr("The pet de-evolved: %s → %s. The panel shows it at %s.", from, to, at)
    }
}

extension PetMoment {
    /// The line for the live pet now against `before` (read just before the request); nil when
    /// the form is unchanged or `before` is unknown.
    static func after(_ client: PetClient, before: PetView?, clock: ClockStyle) throws(PetClientError) -> String? {
        guard let before else { return nil }
        let after = try client.pet()
        guard after.stageIndex != before.stageIndex else { return nil }
        return line(before: before, after: after, panelAt: try client.widgetEntry().nextDate, clock: clock)
    }
}
