import Foundation
import PetCore
import Testing

@testable import PetStore

/// The files of every schema the store reads (`Fixtures/README.md`), loaded through the store and
/// checked field by field against what they mean in today's types; and the current schema's
/// files written again byte for byte, so a key spelled differently fails here.
@Suite struct GoldenFileTests {
    @Test func schema0FilesLoadWithEveryField() throws {
        // Schema 0 had no rest days, no rollover setting and no `openDayLive` (opened live); its
        // records' daily result is derived: 03-07's +2 is its award alone, 03-08's −1 is +1 − 2 (a miss).
        var world = Golden.world
        world.settings.rollover = false
        world.restDays = []
        world.touchedDays = ["2026-03-09", "2026-03-10"].map(Fixture.day)
        let records = [Golden.rest.notRest(resultXP: 0), Golden.sunday]
        try expectLoaded("schema0", world: world, records: records, migratedFrom: 0)
    }

    @Test func schema1FilesLoadWithEveryField() throws {
        try expectLoaded("schema1", world: Golden1.world, records: [Golden1.monday], migratedFrom: 1)
    }

    /// The release before away days: its open day, the next day's tasks and the rest days count
    /// as touched, and the last closed day too (petprogress(7) §3.1).
    @Test func schema2FilesLoadWithEveryField() throws {
        try expectLoaded("schema2", world: Golden.world, records: [Golden.rest, Golden.sunday], migratedFrom: 2)
    }

    /// The upgrade from schema 2 counts the open day and the last closed day as touched: the open
    /// Monday, left untouched after the upgrade, is judged (not away), and so is Wednesday after it
    /// (its look-back, Tuesday, held a task planned in advance).
    @Test func theUpgradeFromSchema2CountsItsOpenAndLastClosedDayAsTouched() throws {
        let dir = TempDir()
        try FileManager.default.createDirectory(atPath: dir.store, withIntermediateDirectories: true)
        for name in ["state.json", "history-2026.jsonl"] {
            write(String(decoding: Golden.bytes("schema2", name), as: UTF8.self), to: dir.file(name))
        }
        let (store, loaded) = try openLoaded(dir.store)
        store.close()
        guard case .state(var world) = loaded.start else {
            Issue.record("not loaded: \(loaded)")
            return
        }
        #expect(world.lookBackTouched && world.isTouched(world.openDay.key))
        let closeouts = world.closeDueDays(Context(now: 1_773_239_400, zone: Fixture.zone))  // Wed 11th, 15:30
        #expect(closeouts.map(\.day.key) == ["2026-03-09", "2026-03-10"].map(Fixture.day))
        #expect(closeouts.map { $0.record?.presence } == [.present, .present])
        // Monday: Stretch done (+2), two misses (−4), 1 of 3 (−3).
        #expect(closeouts.first?.record?.xpChange == 2 - 4 - 3)
    }

    /// The release before task numbers: each day's tasks are numbered in the order they were
    /// added (their creation order), the open day's and the next day's too.
    @Test func schema3FilesLoadWithEveryField() throws {
        try expectLoaded(
            "schema3", world: Golden.world, records: [Golden.restReturned, Golden.sunday], migratedFrom: 3)
    }

    @Test func schema4FilesLoadWithEveryField() throws {
        try expectLoaded(
            "schema4", world: Golden.world, records: [Golden.restReturned, Golden.sunday], migratedFrom: nil)
    }

    /// Today's writer gives the schema 4 files' very bytes: a renamed, added or reordered key
    /// fails here, not on a user's disk.
    @Test func theCurrentSchemaIsWrittenByteForByte() throws {
        let history = try [Golden.restReturned, Golden.sunday].flatMap { try HistoryLine.encode($0) }
        expectSame(history, Golden.bytes("schema4", "history-2026.jsonl"))
        let tail = HistoryTail(year: 2026, length: Int64(history.count), lastDay: Fixture.day("2026-03-08"))
        expectSame(StateFile.encode(Golden.world, tail: tail), Golden.bytes("schema4", "state.json"))
    }

    func expectSame(_ written: [UInt8], _ golden: [UInt8], sourceLocation: SourceLocation = #_sourceLocation) {
        guard written != golden else { return }
        let i = zip(written, golden).prefix { $0 == $1 }.count
        let context = { (b: [UInt8]) in String(decoding: b[max(0, i - 40)..<min(b.count, i + 40)], as: UTF8.self) }
        let message =
            "written \(written.count) bytes, golden \(golden.count); from byte \(i): written …\(context(written))… "
            + "golden …\(context(golden))…"
        Issue.record(Comment(rawValue: message), sourceLocation: sourceLocation)
    }

    /// Loads a copy of `Fixtures/<version>` and compares the state and history with the expected
    /// values, part by part (so a failure names the part), then whole.
    func expectLoaded(_ version: String, world: PetWorld, records: [DayRecord], migratedFrom: Int?) throws {
        let dir = TempDir()
        try FileManager.default.createDirectory(atPath: dir.store, withIntermediateDirectories: true)
        for name in ["state.json", "history-2026.jsonl"] {
            write(String(decoding: Golden.bytes(version, name), as: UTF8.self), to: dir.file(name))
        }
        let (store, loaded) = try openLoaded(dir.store)
        defer { store.close() }
        #expect(loaded.migratedFrom == migratedFrom)
        #expect(loaded.problems.isEmpty)
        guard case .state(let w) = loaded.start else {
            Issue.record("not loaded: \(loaded)")
            return
        }
        #expect(w.settings == world.settings)
        #expect(w.openingPet == world.openingPet)
        #expect(w.openDay == world.openDay)
        #expect(w.openDayLive == world.openDayLive)
        #expect(w.tasks.count == world.tasks.count)
        for (got, want) in zip(w.tasks, world.tasks) { #expect(got == want) }
        #expect(w.tomorrow == world.tomorrow)
        #expect(w.templates == world.templates)
        #expect(w.restDays == world.restDays)
        #expect(w.lastClosedDay == world.lastClosedDay)
        #expect(w.mutations == world.mutations)
        #expect(w.serial == world.serial)
        #expect(w.snapshot == world.snapshot)
        #expect(w.touchedDays == world.touchedDays)
        #expect(w.lookBackTouched == world.lookBackTouched)
        #expect(w == world)

        let read = try store.history(in: HistoryRange(from: nil, to: nil)).records
        #expect(read.count == records.count)
        for (got, want) in zip(read, records) {
            #expect(got.day == want.day)
            #expect(got.tasks == want.tasks)
            #expect(got.done == want.done && got.total == want.total)
            #expect(got.xpChange == want.xpChange && got.resultXP == want.resultXP)
            #expect(got.rate == want.rate)
            #expect(got.petAtOpen == want.petAtOpen && got.petAtClose == want.petAtClose)
            #expect(got.rest == want.rest)
            #expect(got.presence == want.presence)
            #expect(got == want)
        }
    }
}

/// What the schema 0, 2 and 3 golden files hold (Europe/Berlin, reset time 03:30): Monday 2026-03-09
/// open with a late-morning snapshot, Saturday (a rest day) and Sunday closed.
enum Golden {
    static func bytes(_ version: String, _ name: String) -> [UInt8] {
        let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().path + "/Fixtures/"
        return PetStoreTests.bytes(directory + version + "/" + name) ?? []
    }

    static func task(
        _ id: String, _ title: String, _ time: String, _ day: String, _ scheduled: Instant, order: UInt64,
        done: (at: Instant, seq: UInt64, xp: Int)? = nil, snoozedUntil: Instant? = nil,
        template: (id: String, rule: Repeat)? = nil, number: Int
    ) -> TaskItem {
        var t = TaskItem(
            id: id, title: title, time: WallTime(parsing: time)!, dayKey: Fixture.day(day), scheduled: scheduled,
            order: order, templateID: template?.id, repeatRule: template?.rule, number: number)
        t.completedAt = done?.at
        t.completedSeq = done?.seq ?? 0
        t.xp = done?.xp ?? 0
        t.snoozedUntil = snoozedUntil
        return t
    }

    static let monThu = Repeat.days([.monday, .thursday])

    static var world: PetWorld {
        var w = PetWorld(now: 1_773_039_600, zone: Fixture.zone)
        w.settings.resetTime = WallTime(hour: 3, minute: 30)!
        w.settings.graceMinutes = 45
        w.settings.snoozeMinutes = 20
        w.settings.rollover = true
        w.openingPet = PetState(stageIndex: 1, stageXP: 4)
        w.openDay = Day(key: Fixture.day("2026-03-09"), start: 1_773_023_400, end: 1_773_109_800)
        w.openDayLive = true
        w.tasks = [
            task(
                "20260309-14", "Stretch", "07:30", "2026-03-09", 1_773_037_800, order: 14,
                done: (1_773_038_400, 31, 2), template: ("t-1", .daily), number: 1),
            task(
                "20260309-15", "Write to Zoë about the \"big\" trip", "12:00", "2026-03-09", 1_773_054_000,
                order: 15, snoozedUntil: 1_773_055_200, number: 2),
            task(
                "20260309-16", "Gym", "18:00", "2026-03-09", 1_773_075_600, order: 16, template: ("t-8", monThu),
                number: 3),
        ]
        w.tomorrow = [task("20260310-17", "Dentist", "10:15", "2026-03-10", 1_773_134_100, order: 17, number: 1)]
        w.templates = [
            Template(
                id: "t-1", title: "Stretch", time: WallTime(hour: 7, minute: 30)!, repeatRule: .daily,
                firstDay: Fixture.day("2026-03-02"), order: 1),
            Template(
                id: "t-8", title: "Gym", time: WallTime(hour: 18, minute: 0)!, repeatRule: monThu,
                firstDay: Fixture.day("2026-03-03"), order: 8),
        ]
        w.restDays = [Fixture.day("2026-03-12"), Fixture.day("2026-03-13")]
        w.lastClosedDay = Fixture.day("2026-03-08")
        w.mutations = 33
        w.serial = 17
        w.snapshot = VisibleSnapshot(tick: 1_773_039_600, pet: PetState(stageIndex: 1, stageXP: 6))
        w.touchedDays = ["2026-03-09", "2026-03-10", "2026-03-12", "2026-03-13"].map(Fixture.day)
        w.lookBackTouched = true
        w.lastNumber = 3
        w.lastTomorrowNumber = 1
        return w
    }

    /// Saturday as schema 3 writes it: also a return day (touched after an untouched Friday).
    static var restReturned: DayRecord {
        DayRecord(
            day: rest.day, tasks: rest.tasks, done: rest.done, total: rest.total, rate: rest.rate,
            petAtOpen: rest.petAtOpen, petAtClose: rest.petAtClose, xpChange: rest.xpChange, rest: true,
            resultXP: 0, presence: .returned)
    }

    /// Saturday, marked as a rest day: one task done on time, no daily result.
    static let rest = DayRecord(
        day: Day(key: Fixture.day("2026-03-07"), start: 1_772_850_600, end: 1_772_937_000),
        tasks: [
            task(
                "20260307-11", "Read a chapter", "10:00", "2026-03-07", 1_772_874_000, order: 11,
                done: (1_772_874_600, 27, 2), number: 1)
        ], done: 1, total: 1, rate: 1, petAtOpen: PetState(stageIndex: 1, stageXP: 3),
        petAtClose: PetState(stageIndex: 1, stageXP: 5), xpChange: 2, rest: true, resultXP: 0)

    /// Sunday: the template's instance done late, a snoozed letter missed.
    static let sunday = DayRecord(
        day: Day(key: Fixture.day("2026-03-08"), start: 1_772_937_000, end: 1_773_023_400),
        tasks: [
            task(
                "20260308-13", "Stretch", "07:30", "2026-03-08", 1_772_951_400, order: 13,
                done: (1_772_957_400, 29, 1), template: ("t-1", .daily), number: 2),
            task(
                "20260308-12", "Post letter", "18:00", "2026-03-08", 1_772_989_200, order: 12,
                snoozedUntil: 1_772_990_400, number: 1),
        ], done: 1, total: 2, rate: 0.5, petAtOpen: PetState(stageIndex: 1, stageXP: 5),
        petAtClose: PetState(stageIndex: 1, stageXP: 4), xpChange: -1, rest: false, resultXP: 0)
}

extension DayRecord {
    /// The record as a schema without rest days reads it.
    func notRest(resultXP: Int) -> DayRecord {
        DayRecord(
            day: day, tasks: tasks, done: done, total: total, rate: rate, petAtOpen: petAtOpen, petAtClose: petAtClose,
            xpChange: xpChange, rest: false, resultXP: resultXP)
    }
}

/// What the schema 1 files the released build wrote hold (`Fixtures/schema1/README.md`).
enum Golden1 {
    static func task(
        _ id: String, _ title: String, _ time: String, _ day: String, _ scheduled: Instant, order: UInt64,
        done: (at: Instant, seq: UInt64, xp: Int)? = nil, snoozedUntil: Instant? = nil,
        template: (id: String, rule: Repeat)? = nil, number: Int
    ) -> TaskItem {
        Golden.task(
            id, title, time, day, scheduled, order: order, done: done, snoozedUntil: snoozedUntil, template: template,
            number: number)
    }

    static let tueThu = Repeat.days([.tuesday, .thursday])

    static var world: PetWorld {
        var w = PetWorld(now: 1_772_527_200, zone: Fixture.zone)
        w.settings.resetTime = .midnight
        w.settings.graceMinutes = 45
        w.settings.snoozeMinutes = 20
        w.settings.rollover = true
        w.openingPet = PetState(stageIndex: 0, stageXP: 8)
        w.openDay = Day(key: Fixture.day("2026-03-03"), start: 1_772_492_400, end: 1_772_578_800)
        w.openDayLive = true
        w.tasks = [
            task("20260303-7", "Dentist", "10:15", "2026-03-03", 1_772_529_300, order: 7, number: 1),
            task(
                "20260303-9", "Stretch", "07:30", "2026-03-03", 1_772_519_400, order: 9,
                done: (1_772_527_200, 16, 1), template: ("t-1", .daily), number: 2),
            task(
                "20260303-10", "Gym", "18:00", "2026-03-03", 1_772_557_200, order: 10, template: ("t-8", tueThu),
                number: 3),
            task("20260303-11", "Call the bank", "20:00", "2026-03-03", 1_772_564_400, order: 11, number: 4),
            task(
                "20260303-12", "Read a chapter", "21:00", "2026-03-03", 1_772_568_000, order: 12,
                snoozedUntil: 1_772_568_900, number: 5),
        ]
        w.tomorrow = [
            task("20260304-13", "Plan the week", "08:00", "2026-03-04", 1_772_607_600, order: 13, number: 1)
        ]
        w.templates = [
            Template(
                id: "t-1", title: "Stretch", time: WallTime(hour: 7, minute: 30)!, repeatRule: .daily,
                firstDay: Fixture.day("2026-03-02"), order: 1),
            Template(
                id: "t-8", title: "Gym", time: WallTime(hour: 18, minute: 0)!, repeatRule: tueThu,
                firstDay: Fixture.day("2026-03-03"), order: 8),
        ]
        w.restDays = []
        w.lastClosedDay = Fixture.day("2026-03-02")
        w.mutations = 19
        w.serial = 13
        w.snapshot = VisibleSnapshot(tick: 1_772_524_800, pet: PetState(stageIndex: 0, stageXP: 8))
        w.touchedDays = ["2026-03-03", "2026-03-04"].map(Fixture.day)
        w.lastNumber = 5
        w.lastTomorrowNumber = 1
        return w
    }

    /// Monday, 4 of 5 done: +7 in awards, −2 for the miss, and the daily result's +3.
    static let monday = DayRecord(
        day: Day(key: Fixture.day("2026-03-02"), start: 1_772_406_000, end: 1_772_492_400),
        tasks: [
            task(
                "20260302-2", "Stretch", "07:30", "2026-03-02", 1_772_433_000, order: 2,
                done: (1_772_438_400, 7, 1), template: ("t-1", .daily), number: 1),
            task(
                "20260302-3", "Write report", "09:00", "2026-03-02", 1_772_438_400, order: 3,
                done: (1_772_438_400, 8, 2), number: 2),
            task(
                "20260302-5", "Water plants", "09:15", "2026-03-02", 1_772_439_300, order: 5,
                done: (1_772_438_400, 9, 2), number: 4),
            task(
                "20260302-6", "Post letter", "09:30", "2026-03-02", 1_772_440_200, order: 6,
                done: (1_772_438_400, 6, 2),
                number: 5),
            task("20260302-4", "Call the bank", "20:00", "2026-03-02", 1_772_478_000, order: 4, number: 3),
        ], done: 4, total: 5, rate: 0.8, petAtOpen: PetState(stageIndex: 0, stageXP: 0),
        petAtClose: PetState(stageIndex: 0, stageXP: 8), xpChange: 8, rest: false, resultXP: 3)
}
