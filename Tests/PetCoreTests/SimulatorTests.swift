import PetCore
import PropertyBased
import Testing

@Suite struct SimulatorTests {
    func config(_ days: Int = 120, _ tasks: Int = 5, _ done: Double = 0.8, _ onTime: Double = 0.7, seed: UInt64 = 42)
        throws -> SimulationConfig
    {
        try SimulationConfig(days: days, tasksPerDay: tasks, doneRate: done, onTimeRate: onTime, seed: seed)
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
    }

    @Test func textAndCSVForms() throws {
        let r = Simulator.run(try config(10, 5, 1, 1))
        let lines = r.text.split(separator: "\n")
        #expect(lines.count == 2 + 20 + 1)
        #expect(lines[0] == "Simulated 10 days, 5 tasks a day, done rate 1.0, on-time rate 1.0, seed 42.")
        #expect(lines[3].hasPrefix("1      Minnow") && lines[3].hasSuffix("  1"))
        #expect(r.csv.split(separator: "\n").count == 21)
    }

    /// The simulator agrees with the engine as the daemon drives it: the same outcomes replayed
    /// through `PetWorld` (add tasks, mark them done on time or late, close the day) give the
    /// same pet after every day.
    @Test func agreesWithPetWorld() async {
        await propertyCheck(
            count: 30, input: Gen.uint64(), Gen.int(in: 0...8), Gen.double(in: 0...1), Gen.double(in: 0...1)
        ) {
            seed, tasks, doneRate, onTimeRate in
            guard
                let cfg = try? SimulationConfig(
                    days: 40, tasksPerDay: tasks, doneRate: doneRate, onTimeRate: onTimeRate, seed: seed)
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
                ctx.now = world.openDay.end
                _ = world.closeDueDays(ctx)
                #expect(world.livePet(.builtIn) == day.petAtClose, "day \(day.number), seed \(seed)")
            }
        }
    }
}
