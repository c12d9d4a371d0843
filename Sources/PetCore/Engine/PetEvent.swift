/// The four events that change the pet (petprogress(7) §2.1).
public enum PetEvent: Hashable, Sendable {
    /// A task done within the grace window of its scheduled instant: +2.
    case doneOnTime
    /// A task done the same day outside the grace window: +1.
    case doneLate
    /// A task still not done at its day's closeout: −2.
    case missed
    /// The once-per-day result of a closed day with at least one task.
    case dailyResult(done: Int, total: Int)

    /// The stage XP this event adds (negative: removes) before evolving or de-evolving.
    public var xp: Int {
        switch self {
        case .doneOnTime: return 2
        case .doneLate: return 1
        case .missed: return -2
        case .dailyResult(let done, let total):
            guard total > 0 else { return 0 }
            // rate >= 0.8 and rate < 0.4, in integers so no rounding can move a boundary.
            if done * 10 >= total * 8 { return 3 }
            if done * 10 < total * 4 { return -3 }
            return 0
        }
    }

    /// The completion event whose award is `xp` (2 on time, 1 early or late), for replaying a day.
    public static func completion(xp: Int) -> PetEvent { xp >= 2 ? .doneOnTime : .doneLate }
}
