import PetCore

/// The pet and XP changes as the story commands write them.
enum PetText {
    /// `Frog 12/30`; at the final stage, where XP keeps counting, `Floating God 7 XP`.
    static func short(_ pet: PetState, _ stages: StageTable) -> String {
        let state = stages.clamp(pet)
        let stage = stages.stage(state.stageIndex)
        return state.stageIndex == stages.finalIndex
            ? "\(stage.name) \(state.stageXP) XP" : "\(stage.name) \(state.stageXP)/\(stage.threshold)"
    }

    /// `+2`, `−2` (a true minus sign), `±0`.
    static func signed(_ xp: Int) -> String { xp > 0 ? "+\(xp)" : xp < 0 ? "−\(-xp)" : "±0" }
}
