import Foundation
import PetCore

/// A durable write the script asks for: a plain save, or a closeout commit, of this world.
struct Write {
    var records: [DayRecord]?
    var world: PetWorld
}

/// A deterministic, seeded sequence of PetCore mutations and closeouts on a simulated clock. The
/// same seed always gives the same worlds, so a replay tells exactly what each write held.
struct Script {
    let seed: UInt64
    private(set) var world: PetWorld
    private(set) var now: Instant
    private var step: UInt64 = 0
    private var pending: [Write] = []
    let zone: Zone

    static let start: Instant = 1_797_757_200  // 2026-12-20 09:00 UTC: the first closeouts cross a year

    init(seed: UInt64) {
        self.seed = seed
        // Berlin's rules as a POSIX TZ string: the crash child reads no zone file.
        self.zone = (try? Zone(posixRule: "CET-1CEST,M3.5.0,M10.5.0/3")) ?? .utc
        self.now = Self.start
        self.world = PetWorld(now: Self.start, zone: zone)
    }

    var context: Context { Context(now: now, zone: zone) }

    /// Runs steps until one produces a durable write; returns it.
    mutating func next() -> Write {
        while pending.isEmpty { runStep() }
        return pending.removeFirst()
    }

    private mutating func runStep() {
        var rng = SplitMix64(seed: seed &+ step &* 0x9E37_79B9_7F4A_7C15)
        step += 1
        now += advance(&rng)
        let closeouts = world.closeDueDays(context)
        if !closeouts.isEmpty { pending.append(Write(records: closeouts.compactMap(\.record), world: world)) }
        if (try? mutate(&rng)) != nil { pending.append(Write(records: nil, world: world)) }
    }

    /// Minutes to hours, now and then days (a machine that was off: catch-up closeouts).
    private func advance(_ rng: inout SplitMix64) -> Instant {
        let roll = rng.below(100)
        if roll < 70 { return Instant(60 * (1 + rng.below(40))) }
        if roll < 98 { return Instant(3600 * (1 + rng.below(6))) }
        return Instant(86_400 * (1 + rng.below(4)))
    }

    private mutating func mutate(_ rng: inout SplitMix64) throws(PetError) {
        let ctx = context
        let time = String(format: "%02d:%02d", Int(rng.below(24)), Int(rng.below(4)) * 15)
        let roll = rng.below(100)
        switch roll {
        case 0..<30: try world.addTask(title: "task \(step)", time: time, ctx)
        case 30..<38: try world.addTask(title: "later \(step)", time: time, day: "tomorrow", ctx)
        case 38..<42:
            let rule = ["daily", "weekdays", "mon,wed,fri"][Int(rng.below(3))]
            try world.addTask(title: "habit \(step)", time: time, repeat: rule, ctx)
        case 42..<52: _ = try world.markNextDone(ctx)
        case 52..<62: try world.markDone(id: pick(world.tasks.map(\.id), &rng), ctx)
        case 62..<68: try world.undo(id: pick(world.tasks.filter(\.isDone).map(\.id), &rng))
        case 68..<76: _ = try world.snoozeNext(ctx)
        case 76..<82:
            try world.deleteTask(
                id: pick(world.tasks.map(\.id) + world.tomorrow.map(\.id) + world.templates.map(\.id), &rng))
        case 82..<90:
            try world.updateTask(
                id: pick(world.tasks.map(\.id), &rng), title: "edited \(step)", time: rng.below(2) == 0 ? time : "", ctx
            )
        case 90..<93: world.setRollover(rng.below(2) == 0)
        case 93..<96: try world.setGraceMinutes(Int(rng.below(120)))
        case 96..<99: try world.setSnoozeMinutes(Int(1 + rng.below(60)))
        default: try world.setResetTime(["00:00", "04:00", "03:30"][Int(rng.below(3))])
        }
    }

    private func pick(_ ids: [String], _ rng: inout SplitMix64) throws(PetError) -> String {
        guard !ids.isEmpty else { throw PetError(.nothingPending, "no candidate") }
        return ids[Int(rng.below(UInt64(ids.count)))]
    }
}

extension SplitMix64 {
    /// A draw in `0..<n`, by modulo: the same draws as the script has always made for a seed.
    fileprivate mutating func below(_ n: UInt64) -> UInt64 { next() % n }
}
