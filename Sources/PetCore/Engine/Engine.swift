/// The pet engine: pure functions of (state, stage table), exactly as petprogress(7) §2.1.
public enum Engine {
    /// Applies one event: add its XP, then evolve and/or de-evolve as the event requires.
    public static func apply(_ event: PetEvent, to state: PetState, table: StageTable) -> PetState {
        var s = table.clamp(state)
        s.stageXP += event.xp
        switch event {
        case .doneOnTime, .doneLate: return evolve(s, table: table)
        case .missed: return deEvolve(s, table: table)
        case .dailyResult: return deEvolve(evolve(s, table: table), table: table)
        }
    }

    /// Applies events in order.
    public static func apply(_ events: [PetEvent], to state: PetState, table: StageTable) -> PetState {
        events.reduce(state) { apply($1, to: $0, table: table) }
    }

    /// While not final and XP reaches the threshold: next stage, XP 0 (surplus discarded).
    public static func evolve(_ state: PetState, table: StageTable) -> PetState {
        var s = state
        while s.stageIndex < table.finalIndex, s.stageXP >= table.threshold(s.stageIndex) {
            s.stageIndex += 1
            s.stageXP = 0
        }
        return s
    }

    /// While XP is negative above stage 0: previous stage with `max(0, threshold − 1 + XP)`;
    /// then the stage-0 clamp, so the pet never holds negative XP.
    public static func deEvolve(_ state: PetState, table: StageTable) -> PetState {
        var s = state
        while s.stageXP < 0, s.stageIndex > 0 {
            s.stageIndex -= 1
            s.stageXP = max(0, table.threshold(s.stageIndex) - 1 + s.stageXP)
        }
        if s.stageIndex == 0 { s.stageXP = max(0, s.stageXP) }
        return s
    }
}
