import PetCore
import PetSync
import TestSupport

/// Central European time, with its DST changes: days of 23 and 25 hours fall inside the runs.
let berlin = try! Zone(posixRule: "CET-1CEST,M3.5.0,M10.5.0/3")
let minute: Instant = 60
let hour: Instant = 3600
let dayLength: Instant = 86_400

func at(_ text: String) -> Instant { unix(text) }

extension SplitMix64 {
    mutating func below(_ n: Int) -> Int { Int(next() % UInt64(max(n, 1))) }
    mutating func chance(_ p: Double) -> Bool { unit() < p }
    mutating func pick<T>(_ xs: [T]) -> T? { xs.isEmpty ? nil : xs[below(xs.count)] }
    mutating func shuffle<T>(_ xs: inout [T]) {
        guard xs.count > 1 else { return }
        for i in stride(from: xs.count - 1, to: 0, by: -1) { xs.swapAt(i, below(i + 1)) }
    }
}

/// A user's next change, chosen from what this device shows at `now`: adds (one-offs for today or
/// tomorrow, repeating ones), done, undo, snooze, edits, deletions, rest marks and settings. Most
/// are accepted; some are refused by the rules, as a person's would be.
func randomChange(_ s: SyncState, now: Instant, zone: Zone, rng: inout SplitMix64) -> Change {
    guard let w = s.world else { return .wake }
    let today = w.openDay.key
    let tomorrow = w.nextDay(zone: zone).key
    func ref(_ t: TaskItem?) -> TaskRef? { t.flatMap { s.ref(ofLocal: $0.id) } }
    func time() -> String {
        let h = rng.below(24)
        let m = rng.pick([0, 15, 30, 45, 59])!
        return (h < 10 ? "0" : "") + "\(h):" + (m < 10 ? "0" : "") + "\(m)"
    }
    let pending = w.tasks.filter { !$0.isDone }
    let done = w.tasks.filter(\.isDone)
    switch rng.below(100) {
    case 0..<18: return .add(title: "task \(rng.below(1000))", time: time(), day: today, repeatRule: "")
    case 18..<24: return .add(title: "later \(rng.below(1000))", time: time(), day: tomorrow, repeatRule: "")
    case 24..<28:
        return .add(
            title: "habit \(rng.below(100))", time: time(), day: rng.chance(0.7) ? today : tomorrow,
            repeatRule: rng.pick(["daily", "weekdays", "mon,wed,fri", "sat,sun"])!)
    case 28..<52: return ref(rng.pick(pending)).map { .done(task: $0) } ?? .wake
    case 52..<57: return ref(rng.pick(done)).map { .undo(task: $0) } ?? .wake
    case 57..<64: return ref(rng.pick(pending)).map { .snooze(task: $0) } ?? .wake
    case 64..<70:
        let target = rng.chance(0.2) ? s.ref(ofLocal: rng.pick(w.templates)?.id ?? "") : ref(rng.pick(w.tasks))
        return target.map { .edit(task: $0, title: rng.chance(0.5) ? "renamed \(rng.below(100))" : "", time: time()) }
            ?? .wake
    case 70..<75:
        let target =
            rng.chance(0.3) ? s.ref(ofLocal: rng.pick(w.templates)?.id ?? "") : ref(rng.pick(w.tasks + w.tomorrow))
        return target.map { .delete(task: $0) } ?? .wake
    case 75..<79:
        let from = rng.chance(0.5) ? today : tomorrow
        return .rest(from: from, to: from.adding(days: rng.below(3)), on: rng.chance(0.7))
    case 79..<81: return .grace(rng.pick([0, 15, 60, 120, 720])!)
    case 81..<83: return .snoozeLength(rng.pick([1, 15, 30, 240])!)
    case 83..<85: return .rollover(rng.chance(0.5))
    case 85..<87: return .resetTime(rng.pick(["00:00", "04:00", "03:30", "23:15"])!)
    default: return .wake
    }
}
