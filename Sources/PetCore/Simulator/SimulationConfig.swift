/// The synthetic user of `petctl simulate` (petprogress(7) §7): how many days, how many tasks a day, how
/// often a task is done, how often a done task is on time, how many rest days a week, and the seed.
public struct SimulationConfig: Hashable, Sendable {
    public let days: Int
    public let tasksPerDay: Int
    /// The chance that a task is done (else it is missed at closeout).
    public let doneRate: Double
    /// The chance that a done task is on time (else it is late: +1).
    public let onTimeRate: Double
    /// Rest days in each week of seven (petprogress(7) §3.1.1): the last ones of the week, so with 2 the
    /// simulated days 6 and 7, 13 and 14, … (day 1 is a Monday: a weekend).
    public let restDaysPerWeek: Int
    public let seed: UInt64

    public static let maxDays = 36_500
    public static let maxTasksPerDay = PetWorld.maxTasksPerDay

    /// Validates every field; `InvalidArgument` names the one that is out of range.
    public init(
        days: Int, tasksPerDay: Int, doneRate: Double, onTimeRate: Double, restDaysPerWeek: Int = 0, seed: UInt64 = 1
    ) throws(PetError) {
        guard (1...Self.maxDays).contains(days) else {
            throw PetError(.invalidArgument, "--days must be between 1 and \(Self.maxDays), not \(days).")
        }
        guard (0...Self.maxTasksPerDay).contains(tasksPerDay) else {
            throw PetError(
                .invalidArgument, "--tasks must be between 0 and \(Self.maxTasksPerDay), not \(tasksPerDay).")
        }
        for (name, rate) in [("--done-rate", doneRate), ("--on-time-rate", onTimeRate)] {
            guard rate.isFinite, (0...1).contains(rate) else {
                throw PetError(.invalidArgument, "\(name) must be a number between 0 and 1, not \(rate).")
            }
        }
        guard (0...7).contains(restDaysPerWeek) else {
            throw PetError(.invalidArgument, "--rest-days-per-week must be between 0 and 7, not \(restDaysPerWeek).")
        }
        self.days = days
        self.tasksPerDay = tasksPerDay
        self.doneRate = doneRate
        self.onTimeRate = onTimeRate
        self.restDaysPerWeek = restDaysPerWeek
        self.seed = seed
    }

    /// Whether the 1-based simulated day `number` is a rest day.
    public func isRestDay(_ number: Int) -> Bool { (number - 1) % 7 >= 7 - restDaysPerWeek }
}
