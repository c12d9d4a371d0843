import PetCore

/// What the closeouts since the user last looked did to the pet's form, in one sentence for the
/// Today screen: `Since you last looked, the pet evolved: Frog → Hermit Crab (closeout of Mon
/// 2 Mar); petctl log shows why.` Nil when the form is what it was.
enum FormChange {
    /// `records`: the closed days not yet shown, in order; `stages`: the table in force.
    static func sentence(_ records: [HistoryRecord], stages: StageTable) -> String? {
        let changed = records.filter { $0.stageIndexOpen != $0.stageIndexClose }
        guard let first = changed.first, let last = changed.last else { return nil }
        let form = { (index: Int) in stages.clamp(PetState(stageIndex: index, stageXP: 0)).stageIndex }
        let from = form(first.stageIndexOpen)
        let to = form(last.stageIndexClose)
        // Each closeout compared on its own: an evolution on Wednesday and a de-evolution on
        // Thursday are two changes, not nothing. Mixed directions are told step by step (the
        // latest three).
        let ups = changed.filter { form($0.stageIndexClose) > form($0.stageIndexOpen) }.count
        if ups != 0 && ups != changed.count || from == to {
            let steps = changed.suffix(3).map {
                tr(
                    "%s → %s (%s)", trc("pet form", dynamic: stages.stage(form($0.stageIndexOpen)).name),
                    trc("pet form", dynamic: stages.stage(form($0.stageIndexClose)).name),
                    LocalClock.shortDayName($0.dayKey))
            }
            return tr(
                "Since you last looked, the pet changed form: %s%s; petctl log shows why.",
                changed.count > 3 ? "…, " : "", steps.joined(separator: ", "))
        }
        let when =
            changed.count == 1
            ? tr("closeout of %s", LocalClock.shortDayName(first.dayKey))
            : tr("closeouts of %s to %s", LocalClock.shortDayName(first.dayKey), LocalClock.shortDayName(last.dayKey))
        let (fromName, toName) = (
            trc("pet form", dynamic: stages.stage(from).name), trc("pet form", dynamic: stages.stage(to).name)
        )
        return to > from
            ? tr("Since you last looked, the pet evolved: %s → %s (%s); petctl log shows why.", fromName, toName, when)
            : tr(
                "Since you last looked, the pet de-evolved: %s → %s (%s); petctl log shows why.", fromName, toName, when
            )
    }
}
