/// Why a closed day changed the pet (`petctl log`, petprogress(7) §7): the events its closeout applied,
/// computed from the record's tasks in the order the rules apply them, replayed through the
/// engine from the pet at opening — and whether that agrees with what the record says.
public struct DayStory: Hashable, Sendable {
    /// One step of the day, in the rules' order.
    public enum Step: Hashable, Sendable {
        /// A completion: +2 on time, +1 early or late (the award the task recorded).
        case done(TaskRecord)
        /// An undone task charged at closeout: −2.
        case missed(TaskRecord)
        /// An undone task on a rest, an away or a return day: not charged.
        case uncharged(TaskRecord)
        /// The daily result of a judged day with tasks: +3, −3 or 0.
        case dailyResult(done: Int, total: Int)

        /// The event this step applies to the pet; nil for an uncharged task.
        public var event: PetEvent? {
            switch self {
            case .done(let task): .completion(xp: task.xp)
            case .missed: .missed
            case .uncharged: nil
            case .dailyResult(let done, let total): .dailyResult(done: done, total: total)
            }
        }
    }

    public let record: HistoryRecord
    /// Completions by `completed_seq`, then each undone task in day order, then the daily result
    /// (none on a rest, an away or a return day, or a day without tasks) — the closeout's order (petprogress(7) §2.1, §3.1).
    public let steps: [Step]
    /// The pet at opening, in the table the story was told with.
    public let before: PetState
    /// The engine's result of applying the steps' events to `before`.
    public let replayed: PetState
    /// The record's closing pet, in the same table.
    public let recorded: PetState

    public init(_ record: HistoryRecord, stages: StageTable) {
        self.record = record
        let done = record.tasks.filter(\.done).sorted { $0.completedSeq < $1.completedSeq }
        let undone = record.tasks.filter { !$0.done }
        var steps = done.map(Step.done)
        steps += undone.map { record.unjudged ? .uncharged($0) : .missed($0) }
        if !record.unjudged, !record.tasks.isEmpty {
            steps.append(.dailyResult(done: done.count, total: record.tasks.count))
        }
        self.steps = steps
        before = stages.clamp(PetState(stageIndex: record.stageIndexOpen, stageXP: record.stageXPOpen))
        replayed = Engine.apply(steps.compactMap(\.event), to: before, table: stages)
        recorded = stages.clamp(PetState(stageIndex: record.stageIndexClose, stageXP: record.stageXPClose))
    }

    /// The XP of every event, added up: what the record's `xp_change` must be.
    public var xpSum: Int { steps.compactMap(\.event).reduce(0) { $0 + $1.xp } }

    /// The daily result's own XP as computed: +3, −3 or 0.
    public var dailyXP: Int {
        steps.compactMap { step -> Int? in
            if case .dailyResult = step { return step.event?.xp }
            return nil
        }.first ?? 0
    }

    /// The events add up to the record's `xp_change` and its `daily_xp`.
    public var sumAgrees: Bool { xpSum == record.xpChange && dailyXP == record.dailyXP }

    /// Replaying the events from the opening pet gives the record's closing pet.
    public var replayAgrees: Bool { replayed == recorded }
}
