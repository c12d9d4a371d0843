/// The XP rules of petprogress(7) §2.1 that the open day can exercise, written out here — not PetCore
/// called — so the test is an independent oracle.
enum PetRules {
    /// The built-in stage thresholds (petprogress(7) §2): stage XP needed to evolve out of each stage.
    static let thresholds = [10, 20, 30, 40, 50, 60, 75, 90, 110, 135, 165, 200, 240, 285, 335, 390, 450, 515, 585, 0]

    /// Grace (minutes) around a task's scheduled instant within which a completion is on time.
    static let graceSeconds: Int64 = 60 * 60
    /// The default snooze length.
    static let snoozeSeconds: Int64 = 15 * 60

    /// The award for completing at `completed` a task scheduled at `scheduled`: 2 on time, else 1.
    static func award(scheduled: Int64, completed: Int64) -> Int {
        abs(completed - scheduled) <= graceSeconds ? 2 : 1
    }

    /// Adds `xp` and evolves: while not final and XP reaches the threshold, next stage at 0 XP.
    static func gain(_ pet: (stage: Int, xp: Int), _ xp: Int) -> (stage: Int, xp: Int) {
        var (stage, stageXP) = (pet.stage, pet.xp + xp)
        while stage < thresholds.count - 1, stageXP >= thresholds[stage] {
            stage += 1
            stageXP = 0
        }
        return (stage, stageXP)
    }

    /// The live pet after the day's remaining awards, replayed in completion order from `opening`
    /// (what undo promises: as if an undone completion never happened).
    static func replay(_ awards: [Int], from opening: (stage: Int, xp: Int) = (0, 0)) -> (stage: Int, xp: Int) {
        awards.reduce(opening, gain)
    }
}
