import PetCore
import PropertyBased
import Testing

@Suite struct SimulatorTests {
    func config(
        _ days: Int = 120, _ tasks: Int = 5, _ done: Double = 0.8, _ onTime: Double = 0.7, rest: Int = 0,
        seed: UInt64 = 42
    ) throws -> SimulationConfig {
        try SimulationConfig(
            days: days, tasksPerDay: tasks, doneRate: done, onTimeRate: onTime, restDaysPerWeek: rest, seed: seed)
    }

    @Test func splitMix64KnownValues() {
        // Reference outputs of SplitMix64 seeded with 0 (as in Vigna's splitmix64.c).
        var g = SplitMix64(seed: 0)
        #expect(
            [g.next(), g.next(), g.next()] == [0xE220_A839_7B1D_CDAF, 0x6E78_9E6A_A1B9_65F4, 0x06C4_5D18_8009_454F])
    }

    @Test func reproducibleForASeed() throws {
        let a = Simulator.run(try config())
        let b = Simulator.run(try config())
        #expect(a == b)
        #expect(a.csv == b.csv && a.text == b.text)
        #expect(Simulator.run(try config(seed: 43)).days != a.days, "another seed, another user")
    }

    /// A perfect user: 5 on-time tasks a day is +10 and +3 daily: 13 XP a day.
    @Test func perfectUserReachesStagesOnSchedule() throws {
        let r = Simulator.run(try config(30, 5, 1, 1))
        #expect(r.firstDay[0] == 0)
        #expect(r.firstDay[1] == 1, "10 XP on day 1")
        // Day 1 ends at Minnow 3, day 2 at Minnow 16; on day 3 the second task reaches 20: Frog.
        #expect(r.firstDay[2] == 3)
        #expect(r.days.allSatisfy { $0.outcomes == Array(repeating: .onTime, count: 5) })
    }

    @Test func aUserWhoNeverDoesAnythingStaysATadpole() throws {
        let r = Simulator.run(try config(50, 4, 0, 1))
        #expect(r.final == .hatchling)
        #expect(r.firstDay.dropFirst().allSatisfy { $0 == nil })
        #expect(r.csv.hasPrefix("stage,name,threshold,first_day\n0,Tadpole,10,0\n1,Minnow,20,\n"))
    }

    @Test func rejectsOutOfRangeConfigs() {
        for bad in [(0, 5, 0.5, 0.5), (10, -1, 0.5, 0.5), (10, 201, 0.5, 0.5), (10, 5, 1.5, 0.5), (10, 5, 0.5, .nan)] {
            #expect(throws: PetError.self) {
                _ = try SimulationConfig(days: bad.0, tasksPerDay: bad.1, doneRate: bad.2, onTimeRate: bad.3)
            }
        }
        for bad in [-1, 8] {
            #expect(throws: PetError.self) { _ = try config(rest: bad) }
        }
    }

    @Test func textAndCSVForms() throws {
        let r = Simulator.run(try config(10, 5, 1, 1))
        let lines = r.text.split(separator: "\n")
        #expect(lines.count == 2 + 20 + 1)
        #expect(lines[0] == "Simulated 10 days, 5 tasks a day, done rate 1.0, on-time rate 1.0, seed 42.")
        #expect(lines[3].hasPrefix("1      Minnow") && lines[3].hasSuffix("  1"))
        #expect(r.csv.split(separator: "\n").count == 21)
    }

    /// Rest days are the last of each week of seven: with 2, days 6–7, 13–14, … (a weekend when
    /// day 1 is a Monday); with 7 every day.
    @Test func restDaysAreTheLastOfEachWeek() throws {
        let two = Simulator.run(try config(16, rest: 2))
        #expect(two.days.filter(\.rest).map(\.number) == [6, 7, 13, 14])
        #expect(Simulator.run(try config(16)).days.allSatisfy { !$0.rest })
        #expect(Simulator.run(try config(16, rest: 7)).days.allSatisfy(\.rest))
        #expect(
            two.text.hasPrefix("Simulated 16 days, 5 tasks a day, done rate 0.8, on-time rate 0.7, 2 rest days a week,")
        )
    }

    /// A perfect user on 1 task a day: +2 and +3 on a working day, +2 alone on a rest day (no
    /// daily result). Days 1–5 end at Tadpole 5, Minnow 0 (10 evolves), 5, 10, 15; with the
    /// weekend resting, days 6 and 7 end at Minnow 17 and 19; without, day 6 reaches 20 (Frog 0)
    /// and day 7 ends at Frog 5.
    @Test func aPerfectUsersWeekendGetsNoDailyResult() throws {
        let rest = Simulator.run(try config(7, 1, 1, 1, rest: 2))
        #expect(rest.days.map(\.xpChange) == [5, 5, 5, 5, 5, 2, 2])
        #expect(rest.days.map(\.petAtClose.stageXP) == [5, 0, 5, 10, 15, 17, 19])
        #expect(rest.final == PetState(stageIndex: 1, stageXP: 19))
        let none = Simulator.run(try config(7, 1, 1, 1))
        #expect(none.days.map(\.petAtClose.stageXP) == [5, 0, 5, 10, 15, 0, 5])
        #expect(none.final == PetState(stageIndex: 2, stageXP: 5))
    }

    /// petprogress(7) §3.1.1 for every user: the same seed is the same behaviour with or without rest days;
    /// on a rest day the pet only gains (completions, nothing charged, no daily result), and a
    /// working day's XP is the rules' sum.
    @Test func restDaysLoseNothing() async {
        await propertyCheck(
            count: 60, input: Gen.uint64(), Gen.int(in: 0...8), Gen.double(in: 0...1), Gen.int(in: 1...7)
        ) { seed, tasks, doneRate, rest in
            guard let plain = try? config(60, tasks, doneRate, 0.6, seed: seed),
                let resting = try? config(60, tasks, doneRate, 0.6, rest: rest, seed: seed)
            else { return }
            let a = Simulator.run(plain)
            let b = Simulator.run(resting)
            #expect(a.days.map(\.outcomes) == b.days.map(\.outcomes), "the same user")
            var previous = PetState.hatchling
            for day in b.days {
                let onTime = day.outcomes.filter { $0 == .onTime }.count
                let late = day.outcomes.filter { $0 == .late }.count
                let missed = day.outcomes.count - onTime - late
                let daily = PetEvent.dailyResult(done: onTime + late, total: day.outcomes.count).xp
                if day.rest {
                    #expect(day.xpChange == 2 * onTime + late)
                    let after = day.petAtClose
                    let before = previous
                    #expect(
                        (after.stageIndex, after.stageXP) >= (before.stageIndex, before.stageXP),
                        "rest day \(day.number) lost: \(before) → \(after)")
                } else {
                    #expect(day.xpChange == 2 * onTime + late - 2 * missed + daily)
                }
                previous = day.petAtClose
            }
        }
    }

    /// The simulator agrees with the engine as the daemon drives it: the same outcomes replayed
    /// through `PetWorld` (add tasks, mark them done on time or late, mark a rest day, close the
    /// day) give the same pet after every day.
    @Test func agreesWithPetWorld() async {
        await propertyCheck(
            count: 30, input: Gen.uint64(), Gen.int(in: 0...8), Gen.double(in: 0...1), Gen.double(in: 0...1)
        ) {
            seed, tasks, doneRate, onTimeRate in
            // 0–3 rest days a week, marked on the world as the day runs (petprogress(7) §3.1.1).
            guard
                let cfg = try? SimulationConfig(
                    days: 40, tasksPerDay: tasks, doneRate: doneRate, onTimeRate: onTimeRate,
                    restDaysPerWeek: Int(seed % 4), seed: seed)
            else {
                Issue.record("config rejected: \(tasks) \(doneRate) \(onTimeRate)")
                return
            }
            let result = Simulator.run(cfg)
            var world = PetWorld(now: at("2026-03-02T00:30:00Z"), zone: .utc)
            for day in result.days {
                let dayStart = world.openDay.start
                var ctx = Context(now: dayStart + 1800, zone: .utc)
                var ids: [String] = []
                for n in day.outcomes.indices {
                    let h = 8 + n
                    guard let id = try? world.addTask(title: "t\(n)", time: "\(h < 10 ? "0" : "")\(h):00", ctx) else {
                        Issue.record("could not add task \(n) on day \(day.number)")
                        return
                    }
                    ids.append(id)
                }
                for (id, outcome) in zip(ids, day.outcomes) where outcome != .missed {
                    guard let task = world.tasks.first(where: { $0.id == id }) else { return }
                    ctx.now = outcome == .onTime ? task.scheduled + 600 : task.scheduled + 3 * 3600
                    let xp = try? world.markDone(id: id, ctx)
                    #expect(xp == (outcome == .onTime ? 2 : 1))
                }
                if day.rest {
                    do { try world.setRest(from: "today", to: "today", rest: true, ctx) } catch {
                        Issue.record("setRest: \(error)")
                    }
                }
                ctx.now = world.openDay.end
                _ = world.closeDueDays(ctx)
                #expect(world.livePet(.builtIn) == day.petAtClose, "day \(day.number), seed \(seed)")
            }
        }
    }
}
