import Foundation
import PetCore
import PropertyBased
import Testing

@testable import PetStore

/// The same bounds on every write (petprogress(7) §5, issue 37 item 3): the store never writes what
/// its own loader would refuse. Generated values across the counters' edge (2³¹−1) and the dates'
/// edges (1970, 9999-12-31) are put into a world and saved: within the bounds the save succeeds
/// and the reload gives the same world back; past them the save is refused (`outOfBounds`), the
/// file on disk is byte for byte what it was, and a reload gives the previous world.
@Suite struct BoundsOnWriteTests {
    static let edge = Int64(Int32.max)
    /// Values around the counters' bound: 2³¹−1 − 3 … 2³¹ + 3.
    static let counterGen = Gen.int(in: -3...4).map { UInt64(edge + Int64($0)) }
    /// Instants around the years' bounds.
    static let instantGen = Gen.int(in: 0...7).map { (k: Int) -> Instant in
        k < 4 ? Bounds.instant.upperBound - 1 + Instant(k) : Bounds.instant.lowerBound - 2 + Instant(k - 4)
    }

    enum Field: CaseIterable { case mutations, serial, lastNumber, lastTomorrowNumber, taskOrder, completedSeq }

    static func set(_ field: Field, _ value: UInt64, in world: inout PetWorld) {
        switch field {
        case .mutations: world.mutations = value
        case .serial: world.serial = value
        case .lastNumber: world.lastNumber = Int(value)
        case .lastTomorrowNumber: world.lastTomorrowNumber = Int(value)
        case .taskOrder:
            // A task's serial and id move together; the world's serial must not fall below it.
            let t = world.tasks[0]
            var moved = TaskItem(
                id: "\(t.dayKey.digits)-\(value)", title: t.title, time: t.time, dayKey: t.dayKey,
                scheduled: t.scheduled, order: value, templateID: t.templateID, repeatRule: t.repeatRule,
                number: t.number)
            moved.completedAt = t.completedAt
            moved.completedSeq = t.completedSeq
            moved.xp = t.xp
            world.tasks[0] = moved
            world.serial = max(world.serial, value)
        case .completedSeq:
            world.tasks[0].completedSeq = value
            world.mutations = max(world.mutations, value)
        }
    }

    /// Saves `world` over a store holding `previous`; checks the outcome against the one check.
    static func saveAndCompare(_ world: PetWorld, previous: PetWorld) throws {
        let dir = TempDir()
        let (store, _) = try openLoaded(dir.store)
        try store.save(previous)
        let before = bytes(dir.file("state.json"))
        let problem = world.boundsProblem()
        do {
            try store.save(world)
            #expect(problem == nil, "saved although \(String(describing: problem))")
        } catch {
            #expect(error.kind == .outOfBounds, "\(error)")
            #expect(problem != nil)
            #expect(bytes(dir.file("state.json")) == before, "a refused write changed the file")
        }
        store.close()
        let (again, loaded) = try openLoaded(dir.store)
        defer { again.close() }
        #expect(loaded.problems.isEmpty, "\(loaded.problems)")
        guard case .state(let read) = loaded.start else {
            Issue.record("the reload found no state")
            return
        }
        #expect(read == (problem == nil ? world : previous))
    }

    @Test("counters around 2³¹−1: written and read back the same, or refused with the file untouched")
    func counters() async throws {
        let base = try Fixture.richWorld()
        await propertyCheck(count: 60, input: Gen.int(in: 0...(Field.allCases.count - 1)), Self.counterGen) {
            index, value in
            var world = base
            Self.set(Field.allCases[index], value, in: &world)
            #expect((world.boundsProblem() == nil) == (value <= UInt64(Self.edge)))
            do { try Self.saveAndCompare(world, previous: base) } catch { Issue.record("\(error)") }
        }
    }

    @Test("instants around 1970 and 9999-12-31: written and read back the same, or refused")
    func instants() async throws {
        let base = try Fixture.richWorld()
        await propertyCheck(count: 40, input: Self.instantGen, Gen.int(in: 0...2)) { instant, which in
            var world = base
            switch which {
            case 0: world.tasks[0].snoozedUntil = instant
            case 1: world.tasks[0].completedAt = instant
            default: world.snapshot = VisibleSnapshot(tick: instant, pet: world.openingPet)
            }
            #expect((world.boundsProblem() == nil) == Bounds.instant.contains(instant))
            do { try Self.saveAndCompare(world, previous: base) } catch { Issue.record("\(error)") }
        }
    }

    @Test("a day after 9999-12-31 is refused: the last day that fits is kept, the next is not")
    func lastDay() throws {
        let base = try Fixture.richWorld()
        let last = DayKey(year: 9999, month: 12, day: 31)!
        var fits = base
        fits.openDay = Day(key: last.adding(days: -1), start: Bounds.instant.upperBound - 2 * 86_400 + 1,
                           end: Bounds.instant.upperBound - 86_400 + 1)
        #expect(fits.boundsProblem() == nil)
        var past = base
        past.openDay = Day(key: last.adding(days: 1), start: Bounds.instant.upperBound + 1,
                           end: Bounds.instant.upperBound + 86_401)
        #expect(past.boundsProblem()?.kind == .date)
        var restPast = base
        restPast.restDays = [last.adding(days: 1)]
        #expect(restPast.boundsProblem()?.kind == .date)
        try Self.saveAndCompare(past, previous: base)
        try Self.saveAndCompare(restPast, previous: base)
    }

    @Test("history records: over the per-day task limit, or counts that disagree, are refused before anything is appended")
    func records() throws {
        let dir = TempDir()
        let (store, _) = try openLoaded(dir.store)
        defer { store.close() }
        let key = Fixture.day("2026-03-01")
        let good = Fixture.record(key, tasks: 3)
        #expect(good.boundsProblem() == nil)
        let tooMany = DayRecord(
            day: good.day, tasks: Array(repeating: good.tasks[1], count: 201), done: 0, total: 201, rate: 0,
            petAtOpen: good.petAtOpen, petAtClose: good.petAtClose, xpChange: 0, rest: false, resultXP: 0)
        let wrongTotal = DayRecord(
            day: good.day, tasks: good.tasks, done: good.done, total: good.total + 1, rate: good.rate,
            petAtOpen: good.petAtOpen, petAtClose: good.petAtClose, xpChange: good.xpChange, rest: good.rest,
            resultXP: good.resultXP)
        let wrongDone = DayRecord(
            day: good.day, tasks: good.tasks, done: good.done + 1, total: good.total, rate: good.rate,
            petAtOpen: good.petAtOpen, petAtClose: good.petAtClose, xpChange: good.xpChange, rest: good.rest,
            resultXP: good.resultXP)
        let wrongRate = DayRecord(
            day: good.day, tasks: good.tasks, done: good.done, total: good.total, rate: 1,
            petAtOpen: good.petAtOpen, petAtClose: good.petAtClose, xpChange: good.xpChange, rest: good.rest,
            resultXP: good.resultXP)
        let world = Fixture.world(closedThrough: key)
        for (name, bad) in [("201 tasks", tooMany), ("total", wrongTotal), ("done", wrongDone), ("rate", wrongRate)] {
            #expect(bad.boundsProblem() != nil, "\(name)")
            #expect(throws: StoreError.self, "\(name)") { try store.closeDays([bad], world: world) }
            #expect(!names(dir.store).contains { $0.hasPrefix("history") }, "\(name): nothing appended")
        }
        try store.closeDays([good], world: world)
        #expect(try store.history(day: key) == good)
    }
}
