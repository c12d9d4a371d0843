import PetCore
import Testing

/// A clock set ten years ahead (petprogress(7) §3.1, issue 37 item 2): the catch-up it causes charges
/// only what the away rule charges — the first untouched day is judged, every later one is an away
/// day — in one go and in the daemon's bounded steps alike.
@Suite struct ClockAheadTests {
    static let monday: Instant = 1_772_442_000  // 2026-03-02T09:00:00Z

    /// A touched open day with three daily templates and two one-offs (one done), rollover on.
    static func world() throws -> PetWorld {
        let ctx = Context(now: monday, zone: .utc)
        var w = PetWorld(now: monday, zone: .utc)
        w.setRollover(true)
        for (n, time) in ["10:00", "11:00", "12:00"].enumerated() {
            _ = try w.addTask(title: "Daily \(n)", time: time, repeat: "daily", ctx)
        }
        let done = try w.addTask(title: "Once", time: "09:30", ctx)
        _ = try w.addTask(title: "Later", time: "20:00", ctx)
        _ = try w.markDone(id: done, ctx)
        return w
    }

    static let tenYears: Instant = 3653 * 86_400

    @Test("ten years ahead: the open day judged, the first untouched day charged, every later day away")
    func tenYearsAhead() throws {
        for step in [Int.max, 31] {
            var w = try Self.world()
            let ctx = Context(now: Self.monday + Self.tenYears, zone: .utc)
            var records: [DayRecord] = []
            while true {
                let caught = w.catchUp(ctx, limit: step)
                records += caught.closeouts.compactMap(\.record)
                if !caught.more { break }
            }
            #expect(records.count == 3653, "step \(step)")
            #expect(records[0].presence == .present && records[0].xpChange != 0)
            #expect(records[1].presence == .present && records[1].xpChange < 0, "the first untouched day is charged")
            let charged = records.dropFirst(2).filter { $0.presence != .away || $0.xpChange != 0 }
            #expect(charged.isEmpty, "step \(step): \(charged.prefix(3).map(\.day.key))")
            #expect(records.allSatisfy { $0.tasks.count <= PetWorld.maxTasksPerDay })
            #expect(w.openDay.contains(ctx.now))
        }
    }
}
