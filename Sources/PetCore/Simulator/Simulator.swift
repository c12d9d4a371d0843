/// The balance simulator behind `petctl simulate` (petprogress(7) §7): a seeded synthetic user over N days,
/// run through the same `Engine` and events as the daemon, reporting the day each stage is first
/// reached. Deterministic for a seed.
public enum Simulator {
    /// What happened to one task of a simulated day.
    public enum Outcome: Hashable, Sendable {
        case onTime, late, missed
    }

    /// One simulated day: its tasks' outcomes in task order and the pet after its closeout.
    public struct Day: Hashable, Sendable {
        /// 1-based day number.
        public let number: Int
        /// A rest day: completions award, undone tasks are not charged, no daily result.
        public let rest: Bool
        public let outcomes: [Outcome]
        /// The sum of the XP of every event the day caused, as a history record's `xp_change`.
        public let xpChange: Int
        public let petAtClose: PetState
    }

    /// Runs the simulation. Each day, tasks are completed in task order (on time +2, late +1),
    /// then the closeout charges each undone task as missed (−2) and applies the daily result —
    /// exactly the daemon's order; a rest day skips both (petprogress(7) §3.1.1). The pet starts as a new
    /// tadpole on day 0. A rest day draws its outcomes like any other day, so the same seed is the
    /// same user whatever the rest days.
    public static func run(_ config: SimulationConfig, stages: StageTable = .builtIn) -> SimulationResult {
        var rng = SplitMix64(seed: config.seed)
        var pet = PetState.hatchling
        var firstDay: [Int?] = Array(repeating: nil, count: stages.count)
        firstDay[0] = 0
        var days: [Day] = []
        days.reserveCapacity(config.days)

        var xpChange = 0
        func apply(_ event: PetEvent, on day: Int) {
            pet = Engine.apply(event, to: pet, table: stages)
            xpChange += event.xp
            if firstDay[pet.stageIndex] == nil { firstDay[pet.stageIndex] = day }
        }

        for number in 1...config.days {
            // Two draws per task, always, so one rate never shifts the other's stream.
            let outcomes: [Outcome] = (0..<config.tasksPerDay).map { _ in
                let done = rng.unit() < config.doneRate
                let onTime = rng.unit() < config.onTimeRate
                return done ? (onTime ? .onTime : .late) : .missed
            }
            xpChange = 0
            for outcome in outcomes where outcome != .missed {
                apply(outcome == .onTime ? .doneOnTime : .doneLate, on: number)
            }
            let rest = config.isRestDay(number)
            let done = outcomes.filter { $0 != .missed }.count
            if !rest {
                for _ in 0..<(outcomes.count - done) { apply(.missed, on: number) }
                if !outcomes.isEmpty { apply(.dailyResult(done: done, total: outcomes.count), on: number) }
            }
            days.append(Day(number: number, rest: rest, outcomes: outcomes, xpChange: xpChange, petAtClose: pet))
        }
        return SimulationResult(config: config, stages: stages, firstDay: firstDay, days: days, final: pet)
    }
}
