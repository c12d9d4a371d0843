/// The pet as a widget or the Today screen shows it (petprogress(7) §6.2's pet keys, and `GetPet`).
public struct PetView: Hashable, Sendable {
    /// 0-based index in the table in force.
    public var stageIndex: Int
    /// The size of the table in force (20 built in).
    public var stageCount: Int
    public var stageName: String
    public var stageXP: Int
    /// Stage XP needed to evolve; 0 at the final stage.
    public var threshold: Int
    /// `stageXP / threshold` in 0…1; 1.0 at the final stage.
    public var progress: Double
    public var isFinal: Bool
    /// The freedesktop icon name, `petprogress-<base>`.
    public var iconName: String
    /// The installed 512×512 PNG's absolute path, "" when not installed.
    public var iconPath: String
    /// The emoji for text-only panels.
    public var glyph: String

    public init(
        stageIndex: Int, stageCount: Int, stageName: String, stageXP: Int, threshold: Int, progress: Double,
        isFinal: Bool, iconName: String, iconPath: String, glyph: String
    ) {
        self.stageIndex = stageIndex
        self.stageCount = stageCount
        self.stageName = stageName
        self.stageXP = stageXP
        self.threshold = threshold
        self.progress = progress
        self.isFinal = isFinal
        self.iconName = iconName
        self.iconPath = iconPath
        self.glyph = glyph
    }

    /// The view of `pet` under `stages`. A stored index past the end of a shorter table reads as
    /// the final stage. `iconPath` gives the installed PNG's absolute path, "" when not installed
    /// (the daemon decides; PetCore reads no disk).
    public init(_ pet: PetState, stages: StageTable, iconPath: (Stage) -> String) {
        let state = stages.clamp(pet)
        let stage = stages.stage(state.stageIndex)
        self.init(
            stageIndex: state.stageIndex, stageCount: stages.count, stageName: stage.name, stageXP: state.stageXP,
            threshold: stage.threshold, progress: Self.progress(of: state, stages: stages),
            isFinal: state.stageIndex == stages.finalIndex, iconName: stage.iconName, iconPath: iconPath(stage),
            glyph: stage.glyph)
    }

    /// `stage_xp / threshold` in 0…1; 1.0 at the final stage.
    public static func progress(of pet: PetState, stages: StageTable) -> Double {
        let state = stages.clamp(pet)
        let threshold = stages.threshold(state.stageIndex)
        guard state.stageIndex < stages.finalIndex, threshold > 0 else { return 1.0 }
        return min(1.0, max(0.0, Double(state.stageXP) / Double(threshold)))
    }
}
