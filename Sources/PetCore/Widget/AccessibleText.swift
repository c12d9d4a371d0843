/// The entry's `accessible_text` (petprogress(7) §6.2): one plain English sentence for screen readers,
/// e.g. `Frog, stage 3 of 20, 12 of 30 XP. 2 of 5 tasks done. Next: 14:30 Write report.`
public enum AccessibleText {
    /// The next task as the sentence names it.
    public struct Next: Hashable, Sendable {
        public let time: String
        public let title: String
        public let overdue: Bool
        /// Due but not yet overdue: still on time.
        public let due: Bool

        public init(time: String, title: String, overdue: Bool, due: Bool = false) {
            self.time = time
            self.title = title
            self.overdue = overdue
            self.due = due
        }
    }

    /// The sentence for a pet (as shown) and a day's task counts and next task. A rest day says so
    /// before the tasks (`… 12 of 30 XP. Rest day. 2 of 5 tasks done. …`), as panels mark it.
    public static func sentence(
        pet: PetState, stages: StageTable, done: Int, total: Int, next: Next?, restDay: Bool = false
    ) -> String {
        let view = PetView(pet, stages: stages, iconPath: { _ in "" })
        let tasks = taskSentence(done: done, total: total, next: next)
        return restDay ? "\(petSentence(view)) \(restSentence) \(tasks)" : "\(petSentence(view)) \(tasks)"
    }

    /// What a rest day adds to the sentence.
    public static let restSentence = "Rest day."

    /// The pet part: `Frog, stage 3 of 20, 12 of 30 XP.`, or `…, final form, 7 XP.`
    public static func petSentence(_ pet: PetView) -> String {
        let position = "\(pet.stageName), stage \(pet.stageIndex + 1) of \(pet.stageCount)"
        return pet.isFinal
            ? "\(position), final form, \(pet.stageXP) XP."
            : "\(position), \(pet.stageXP) of \(pet.threshold) XP."
    }

    /// The task part: `2 of 5 tasks done. Next: 14:30 Write report.`, `No tasks planned.`, or
    /// `3 of 3 tasks done. Nothing pending.`
    public static func taskSentence(done: Int, total: Int, next: Next?) -> String {
        total == 0
            ? countSentence(done: done, total: total)
            : "\(countSentence(done: done, total: total)) \(nextSentence(next))"
    }

    /// `2 of 5 tasks done.`, `1 of 1 task done.`, or `No tasks planned.`
    public static func countSentence(done: Int, total: Int) -> String {
        total == 0 ? "No tasks planned." : "\(done) of \(total) \(total == 1 ? "task" : "tasks") done."
    }

    /// `Next: 14:30 Write report.` (`, due` or `, overdue` when it is), or `Nothing pending.`
    public static func nextSentence(_ next: Next?) -> String {
        guard let next else { return "Nothing pending." }
        let state = next.overdue ? ", overdue" : next.due ? ", due" : ""
        return "Next: \(next.time) \(next.title)\(state)."
    }
}
