import Foundation
import PetCore

/// Keeps a result alive so the optimiser cannot drop the work.
@inline(never) func blackHole(_ x: Int) {
    if x == Int.min { print("") }
}

enum CoreBench {
    /// Times `perBatch` calls of `body`, `batches` times; prints the median, min and max per call.
    static func report(_ name: String, batches: Int, perBatch: Int, _ body: () -> Void) {
        let clock = ContinuousClock()
        body()  // warm up
        var perCall: [Double] = []
        for _ in 0..<batches {
            let d = clock.measure { for _ in 0..<perBatch { body() } }
            perCall.append(seconds(d) / Double(perBatch))
        }
        perCall.sort()
        let median = us(perCall[perCall.count / 2])
        let low = us(perCall[0])
        let high = us(perCall[perCall.count - 1])
        print("\(name): median \(median) per call (min \(low), max \(high); \(batches)×\(perBatch))")
    }

    static func seconds(_ d: Duration) -> Double {
        Double(d.components.seconds) + Double(d.components.attoseconds) * 1e-18
    }

    static func us(_ s: Double) -> String { String(format: "%.2f µs", s * 1e6) }

    /// Monday 2026-03-02 in Europe/Berlin at 13:10: 50 tasks from 06:00 every 15 minutes, the
    /// first 20 done, one snoozed, 3 daily templates, 5 tasks for tomorrow.
    static func fiftyTaskDay() -> (world: PetWorld, ctx: Context) {
        guard let berlin = systemZone("Europe/Berlin") else { fatalError("no Europe/Berlin zone") }
        let monday: Instant = 1_772_406_000  // 2026-03-02 00:00 +01:00
        var ctx = Context(now: monday + 6 * 3600, zone: berlin)
        var world = PetWorld(now: ctx.now, zone: berlin)
        world.openingPet = PetState(stageIndex: 7, stageXP: 40)
        var ids: [String] = []
        for n in 0..<47 {
            let minutes = 6 * 60 + n * 15
            let time = String(format: "%02d:%02d", minutes / 60, minutes % 60)
            if let id = try? world.addTask(title: "Task number \(n)", time: time, ctx) { ids.append(id) }
        }
        for (n, time) in ["07:10", "12:40", "19:30"].enumerated() {
            _ = try? world.addTask(title: "Habit \(n)", time: time, repeat: "daily", ctx)
        }
        for n in 0..<5 { _ = try? world.addTask(title: "Tomorrow \(n)", time: "0\(n + 8):00", day: "tomorrow", ctx) }
        _ = world.catchUp(ctx, startingUp: true)
        ctx.now = monday + 13 * 3600 + 600
        for id in ids.prefix(20) { _ = try? world.markDone(id: id, ctx) }
        if let next = world.nextTask { _ = try? world.snooze(id: next.id, ctx) }
        _ = world.catchUp(ctx)
        precondition(world.tasks.count == 50, "fixture has \(world.tasks.count) tasks")
        return (world, ctx)
    }

    /// The zone sweep's work per tick, over every Zone of tzdata.zi for 2026: finding the next
    /// tick alone, and the daemon's whole per-tick step (next tick + catchUp: due closeouts and
    /// the snapshot rule).
    static func sweep() {
        guard let text = try? String(contentsOfFile: "/usr/share/zoneinfo/tzdata.zi", encoding: .utf8) else {
            print("zone sweep: /usr/share/zoneinfo/tzdata.zi missing; skipped")
            return
        }
        let zones = text.split(separator: "\n").filter { $0.hasPrefix("Z ") }
            .compactMap { $0.split(separator: " ").dropFirst().first.flatMap { systemZone(String($0)) } }
        let start: Instant = 1_767_225_600 - 14 * 3600  // early enough for every zone's 2026
        let end: Instant = 1_798_761_600 + 14 * 3600
        let clock = ContinuousClock()
        var ticks = 0
        let tickOnly = clock.measure {
            for zone in zones {
                var t = start
                while t < end {
                    t = Ticks.next(after: t, zone: zone)
                    ticks += 1
                }
            }
        }
        var steps = 0
        let withCatchUp = clock.measure {
            for zone in zones {
                var world = PetWorld(now: start, zone: zone)
                var t = start
                while t < end {
                    t = Ticks.next(after: t, zone: zone)
                    _ = world.catchUp(Context(now: t, zone: zone))
                    steps += 1
                }
            }
        }
        func total(_ d: Duration) -> String { String(format: "%.2f s total", seconds(d)) }
        print(
            "zone sweep, next tick only: \(zones.count) zones, \(ticks) ticks, "
                + "\(us(seconds(tickOnly) / Double(ticks))) per tick, \(total(tickOnly))")
        print(
            "zone sweep, next tick + catchUp: \(steps) ticks, "
                + "\(us(seconds(withCatchUp) / Double(steps))) per tick, \(total(withCatchUp))")
    }
}

/// A zone of the system tzdata, read here (PetCore reads no file).
func systemZone(_ name: String) -> Zone? {
    FileManager.default.contents(atPath: "/usr/share/zoneinfo/" + name).flatMap {
        try? Zone(identifier: name, tzif: [UInt8]($0))
    }
}
