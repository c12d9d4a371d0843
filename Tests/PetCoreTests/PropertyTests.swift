import PetCore
import PropertyBased
import Testing

/// Invariants of the rules, over generated inputs (swift-property-based).
@Suite struct PropertyTests {
    static let table = StageTable.builtIn
    static let events: [PetEvent] = [
        .doneOnTime, .doneLate, .missed,
        .dailyResult(done: 5, total: 5), .dailyResult(done: 0, total: 5),
        .dailyResult(done: 3, total: 5),
    ]
    static let eventGen = Gen.int(in: 0...(events.count - 1)).map { events[$0] }.array(of: 0...200)
    static let stateGen = Gen.int(in: 0...19).map { i in
        PetState(stageIndex: i, stageXP: 0)
    }

    @Test func stageInRangeAndXPNeverNegative() async {
        await propertyCheck(count: 300, input: Self.stateGen, Gen.int(in: 0...600), Self.eventGen) {
            start, xp, events in
            var s = PetState(
                stageIndex: start.stageIndex, stageXP: min(xp, max(0, Self.table.threshold(start.stageIndex) - 1)))
            if start.stageIndex == 19 { s.stageXP = xp }
            for e in events {
                s = Engine.apply(e, to: s, table: Self.table)
                #expect((0...19).contains(s.stageIndex))
                #expect(s.stageXP >= 0)
                if s.stageIndex < 19 { #expect(s.stageXP < Self.table.threshold(s.stageIndex)) }
            }
        }
    }

    @Test func theFinalStageNeverEvolves() async {
        await propertyCheck(input: Gen.int(in: 0...10_000), Gen.int(in: 0...1).array(of: 0...100)) { xp, kinds in
            var s = PetState(stageIndex: 19, stageXP: xp)
            for k in kinds {
                let next = Engine.apply(k == 0 ? .doneOnTime : .doneLate, to: s, table: Self.table)
                #expect(next.stageIndex == 19 && next.stageXP == s.stageXP + (k == 0 ? 2 : 1))
                s = next
            }
        }
    }

    /// A day of n tasks, some done at generated instants in a generated order; undoing any one of
    /// them equals replaying the day without it, and undoing the latest restores the prior pet.
    @Test func undoEqualsReplayWithoutTheCompletion() async throws {
        await propertyCheck(
            count: 200, input: Self.stateGen, Gen.int(in: 1...12),
            Gen.int(in: 0...1439).array(of: 12), Gen.int(in: 0...11)
        ) { opening, n, minutes, pick in
            var (w, ctx) = monday("00:00")
            w.openingPet = opening
            var ids: [String] = []
            for k in 0..<n {
                ids.append(try w.addTask(title: "t\(k)", time: wallTime(minutes[k]).description, ctx))
            }
            // Complete them in order of a generated minute each (not their creation order), at that minute.
            var petBeforeLast = w.livePet(Self.table)
            for k in (0..<n).sorted(by: { (minutes[11 - $0], $0) < (minutes[11 - $1], $1) }) {
                ctx.now = at("2026-03-02T00:00:00Z") + Int64(minutes[11 - k]) * 60
                petBeforeLast = w.livePet(Self.table)
                try w.markDone(id: ids[k], ctx)
            }
            let victim = ids[pick % n]
            var undone = w
            try undone.undo(id: victim)
            // Replaying the same day's remaining awards, in completion order, from the opening pet.
            let kept = w.tasks.filter { $0.id != victim }.sorted { $0.completedSeq < $1.completedSeq }
            #expect(
                undone.livePet(Self.table)
                    == Engine.apply(kept.map { .completion(xp: $0.xp) }, to: opening, table: Self.table))
            // Undoing the most recent completion restores the exact state before it.
            let latest = w.tasks.max { $0.completedSeq < $1.completedSeq }!
            var back = w
            try back.undo(id: latest.id)
            #expect(back.livePet(Self.table) == petBeforeLast)
        }
    }

    /// Closing is idempotent: once the due days are closed, closing again at any later instant
    /// inside the open day changes nothing.
    @Test func closingAClosedDayChangesNothing() async throws {
        await propertyCheck(input: Gen.int(in: 1...5), Gen.int(in: 0...86_399), Gen.int(in: 0...86_399)) { days, a, b in
            var (w, ctx) = monday()
            try w.addTask(title: "x", time: "12:00", ctx)
            ctx.now = at("2026-03-02T00:00:00Z") + Int64(days) * 86_400 + Int64(min(a, b))
            _ = w.closeDueDays(ctx)
            let closed = w
            ctx.now = at("2026-03-02T00:00:00Z") + Int64(days) * 86_400 + Int64(max(a, b))
            #expect(w.closeDueDays(ctx).isEmpty)
            #expect(w == closed)
        }
    }

    /// Catch-up over k ended days equals k single closeouts under the neutral rule: the first day
    /// closes with its own events, a day holding tasks added in advance closes normally with all
    /// of them missed, and the days in between are neutral.
    @Test func catchUpEqualsSingleCloseouts() async throws {
        await propertyCheck(
            count: 200, input: Gen.int(in: 1...8), Self.stateGen, Gen.int(in: 0...6),
            Gen.int(in: 0...6), Gen.int(in: 0...4)
        ) { k, opening, total, doneCount, advance in
            var (w, ctx) = monday("06:00")
            w.openingPet = opening
            let ids = try (0..<total).map { _ in try w.addTask(title: "t", time: "07:00", ctx) }
            for id in ids.prefix(doneCount) { try w.markDone(id: id, ctx) }
            for _ in 0..<advance { try w.addTask(title: "a", time: "09:00", day: "tomorrow", ctx) }

            // Expected, day by day, with the engine alone.
            let done = min(doneCount, total)
            var pet = w.livePet(Self.table)
            pet = Engine.apply(
                Array(repeating: .missed, count: total - done)
                    + (total > 0 ? [.dailyResult(done: done, total: total)] : []), to: pet, table: Self.table)
            var expectedRecords = 1
            if k >= 2, advance > 0 {
                pet = Engine.apply(
                    Array(repeating: .missed, count: advance) + [.dailyResult(done: 0, total: advance)],
                    to: pet, table: Self.table)
                expectedRecords += 1
            }

            ctx.now = at("2026-03-02T12:00:00Z") + Int64(k) * 86_400
            let closeouts = w.closeDueDays(ctx)
            #expect(closeouts.count == k)
            #expect(closeouts.compactMap(\.record).count == expectedRecords)
            #expect(Set(closeouts.map(\.day.key)).count == k, "no day closed twice")
            #expect(
                zip(closeouts, closeouts.dropFirst()).allSatisfy {
                    $0.day.end == $1.day.start && $0.day.key < $1.day.key
                })
            #expect(w.livePet(Self.table) == pet)
            #expect(w.openDay.contains(ctx.now))
            #expect(w.lastClosedDay == closeouts.last?.day.key)
            if k == 1 { #expect(w.tasks.count == advance, "tomorrow's tasks opened with the day") }
        }
    }
}

private func wallTime(_ minutes: Int) -> WallTime { WallTime(hour: minutes / 60, minute: minutes % 60)! }
