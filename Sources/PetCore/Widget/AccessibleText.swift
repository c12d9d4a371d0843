/// The entry's `accessible_text` (SPEC §6.2): one plain English sentence for screen readers,
/// e.g. `Frog, stage 3 of 20, 12 of 30 XP. 2 of 5 tasks done. Next: 14:30 Write report.`
public enum AccessibleText {
    /// The next task as the sentence names it.
    public struct Next: Hashable, Sendable {
        public let time: String
        public let title: String
        public let overdue: Bool

        public init(time: String, title: String, overdue: Bool) {
            self.time = time
            self.title = title
            self.overdue = overdue
        }
    }

    /// The sentence for a pet (as shown) and a day's task counts and next task. A rest day says so
    /// before the tasks (`… 12 of 30 XP. Rest day. 2 of 5 tasks done. …`), as panels mark it.
    public static func sentence(
        pet: PetState, stages: StageTable, done: Int, total: Int, next: Next?, restDay: Bool = false
    ) -> String {
        let state = stages.clamp(pet)
        let stage = stages.stage(state.stageIndex)
        let position = "\(stage.name), stage \(state.stageIndex + 1) of \(stages.count)"
        let petPart =
            state.stageIndex == stages.finalIndex
            ? "\(position), final form, \(state.stageXP) XP."
            : "\(position), \(state.stageXP) of \(stage.threshold) XP."
        let taskPart: String
        if total == 0 {
            taskPart = "No tasks planned."
        } else {
            let counts = "\(done) of \(total) \(total == 1 ? "task" : "tasks") done."
            if let next {
                taskPart = "\(counts) Next: \(next.time) \(next.title)\(next.overdue ? ", overdue" : "")."
            } else {
                taskPart = "\(counts) Nothing pending."
            }
        }
        return restDay ? "\(petPart) Rest day. \(taskPart)" : "\(petPart) \(taskPart)"
    }
}
