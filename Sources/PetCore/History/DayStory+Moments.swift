extension DayStory {
    /// A change of form one step of the day caused (petprogress(7) §2.1).
    public enum Moment: Hashable, Sendable {
        /// Evolved from `from` into `to`; `dropped` is the XP past the threshold, discarded.
        case evolved(from: PetState, to: PetState, dropped: Int)
        /// De-evolved from `from` (its XP had fallen to `fell`, below 0) into `to`, whose XP is
        /// `max(0, threshold(to) − 1 + fell)`.
        case deEvolved(from: PetState, fell: Int, to: PetState)
    }

    /// For each of `steps`, in order, the change of form it caused; nil when the form stayed.
    public func moments(stages: StageTable) -> [Moment?] {
        var pet = before
        return steps.map { step in
            guard let event = step.event else { return nil }
            let from = stages.clamp(pet)
            let to = Engine.apply(event, to: from, table: stages)
            pet = to
            let raw = from.stageXP + event.xp
            if to.stageIndex > from.stageIndex {
                return .evolved(from: from, to: to, dropped: raw - stages.threshold(from.stageIndex))
            }
            if to.stageIndex < from.stageIndex { return .deEvolved(from: from, fell: raw, to: to) }
            return nil
        }
    }
}
