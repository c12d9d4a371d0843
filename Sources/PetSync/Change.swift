import PetCore

/// What one operation does: every accepted change of petprogress(7) §6.1, with its day named
/// absolutely and its task named by a derived identity (a `TaskRef`), never by a local id.
/// `MarkNextDone` and `SnoozeNext` are resolved on the device that made them: the operation names
/// the task the user saw as next.
public enum Change: Hashable, Sendable {
    /// The device ran at this instant (its first run, and the first time it runs in a day that
    /// none of its operations reached yet): a day it was running in is archived even when empty.
    case wake
    /// `AddTaskFor`: `day` is the day key it was added to (the open day or the next one, as the
    /// device saw them); `repeatRule` empty for a one-off.
    case add(title: String, time: String, day: DayKey, repeatRule: String)
    /// `UpdateTask` on a task or a template; an empty field is unchanged.
    case edit(task: TaskRef, title: String, time: String)
    case delete(task: TaskRef)
    case done(task: TaskRef)
    case undo(task: TaskRef)
    case snooze(task: TaskRef)
    /// `SetRest`, its range as day keys.
    case rest(from: DayKey, to: DayKey, on: Bool)
    case resetTime(String)
    case grace(Int)
    case snoozeLength(Int)
    case rollover(Bool)
    /// What this device holds from before a proposed cut (docs/SYNC.md §9): how many operations
    /// sort before `cut` (their hybrid clock's wall second is earlier) and the wrapping sum of
    /// their digests. Written with a `wake`; changes nothing but the day's catch-up, as a `wake`.
    /// When every device has said the same of one cut, nothing can arrive from before it.
    case seen(cut: Instant, count: Int, digest: UInt64)
    /// Compaction stops waiting for `device` (docs/SYNC.md §9): a device's old id after it took a
    /// new one, or a machine the user forgets. What the writer holds under that id: how many
    /// operations and the wrapping sum of their digests.
    case forget(device: String, count: Int, digest: UInt64)
    /// A kind this version does not know (written by a newer version): the fold stops before it.
    case unknown(String)
}

/// A task's or a template's identity across devices, derived, never drawn from a counter:
/// `o:<operation id>` for what an `add` made, `i:<template ref>@<day key>` for a recurring instance,
/// `r:<hash of the rolled task's ref and the day>` for a rolled copy (docs/SYNC.md §2).
public typealias TaskRef = String

enum Refs {
    static func added(_ op: OperationID) -> TaskRef { "o:\(op)" }
    static func instance(template: TaskRef, day: DayKey) -> TaskRef { "i:\(template)@\(day)" }
    static func rolled(from source: TaskRef, day: DayKey) -> TaskRef {
        "r:" + hex(FNV1a.hash(Array("\(source)@\(day)".utf8)))
    }
}
