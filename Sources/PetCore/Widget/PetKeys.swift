/// The pet keys of an entry and of `GetPet` (SPEC §6.2): `stage_index`, `stage_count`,
/// `stage_name`, `stage_xp`, `threshold`, `progress`, `is_final`, `icon_name`, `icon_path`, `glyph`.
public enum PetKeys {
    /// The keys for `pet` under `stages`. A stored index past the end of a shorter table reads as
    /// the final stage. `iconPath` gives the installed PNG's absolute path, "" when not installed
    /// (the daemon decides; PetCore reads no disk).
    public static func values(for pet: PetState, stages: StageTable, iconPath: (Stage) -> String) -> EntryDictionary {
        let state = stages.clamp(pet)
        let stage = stages.stage(state.stageIndex)
        let isFinal = state.stageIndex == stages.finalIndex
        return [
            "stage_index": .int(state.stageIndex),
            "stage_count": .int(stages.count),
            "stage_name": .string(stage.name),
            "stage_xp": .int(state.stageXP),
            "threshold": .int(stage.threshold),
            "progress": .double(progress(of: state, stages: stages)),
            "is_final": .bool(isFinal),
            "icon_name": .string(stage.iconName),
            "icon_path": .string(iconPath(stage)),
            "glyph": .string(stage.glyph),
        ]
    }

    /// `stage_xp / threshold` in 0…1; 1.0 at the final stage.
    public static func progress(of pet: PetState, stages: StageTable) -> Double {
        let state = stages.clamp(pet)
        let threshold = stages.threshold(state.stageIndex)
        guard state.stageIndex < stages.finalIndex, threshold > 0 else { return 1.0 }
        return min(1.0, max(0.0, Double(state.stageXP) / Double(threshold)))
    }
}
