import Foundation
import PetCore
import TestSupport
import Testing

@testable import PetStore

/// Schema 0, the pre-release shape, hand-written: `pet` and `lastClosed` (now `openingPet` and
/// `lastClosedDay`), tasks' `snooze` (now `snoozedUntil`), no `openDayLive`, no `rollover`.
let stateSchema0 = #"""
    {
      "schema": 0,
      "world": {
        "settings": {"resetTime": "00:00", "graceMinutes": 30, "snoozeMinutes": 10},
        "pet": {"stageIndex": 2, "stageXP": 7},
        "openDay": {"key": "2026-03-02", "start": 1772406000, "end": 1772492400},
        "tasks": [
          {"id": "20260302-3", "title": "Write report", "time": "08:30", "dayKey": "2026-03-02",
           "scheduled": 1772436600, "order": 3, "completedAt": 1772439000, "completedSeq": 9, "xp": 2},
          {"id": "20260302-4", "title": "Call Mum", "time": "12:00", "dayKey": "2026-03-02",
           "scheduled": 1772449200, "order": 4, "completedSeq": 0, "xp": 0, "snooze": 1772453700,
           "templateID": "t-2", "repeatRule": "weekdays"}
        ],
        "tomorrow": [
          {"id": "20260303-5", "title": "Dentist", "time": "09:00", "dayKey": "2026-03-03",
           "scheduled": 1772524800, "order": 5, "completedSeq": 0, "xp": 0}
        ],
        "templates": [
          {"id": "t-2", "title": "Call Mum", "time": "12:00", "repeatRule": "weekdays", "firstDay": "2026-03-01", "order": 2}
        ],
        "lastClosed": "2026-03-01",
        "mutations": 11,
        "serial": 5
      }
    }
    """#

/// A schema 0 history line: `petBefore`/`petAfter` (now `petAtOpen`/`petAtClose`).
let historySchema0 =
    #"{"schema":0,"record":{"day":{"key":"2026-03-01","start":1772319600,"end":1772406000},"#
    + #""tasks":[{"id":"20260301-1","title":"Stretch","time":"08:00","dayKey":"2026-03-01","scheduled":1772348400,"#
    + #""order":1,"completedSeq":0,"xp":0,"snooze":1772349300}],"done":0,"total":1,"rate":0,"#
    + #""petBefore":{"stageIndex":2,"stageXP":12},"petAfter":{"stageIndex":2,"stageXP":7},"xpChange":-5}}"#

@Suite struct MigrationTests {
    /// What the schema 0 fixture means in today's types.
    static func expectedWorld() -> PetWorld {
        let zone = Fixture.zone
        var w = PetWorld(now: 1_772_438_400, zone: zone, lastClosedDay: Fixture.day("2026-03-01"))
        w.settings.graceMinutes = 30
        w.settings.snoozeMinutes = 10
        w.openingPet = PetState(stageIndex: 2, stageXP: 7)
        w.openDay = Day(key: Fixture.day("2026-03-02"), start: 1_772_406_000, end: 1_772_492_400)
        var done = TaskItem(
            id: "20260302-3", title: "Write report", time: WallTime(hour: 8, minute: 30)!,
            dayKey: Fixture.day("2026-03-02"), scheduled: 1_772_436_600, order: 3, number: 1)
        done.completedAt = 1_772_439_000
        done.completedSeq = 9
        done.xp = 2
        var snoozed = TaskItem(
            id: "20260302-4", title: "Call Mum", time: WallTime(hour: 12, minute: 0)!,
            dayKey: Fixture.day("2026-03-02"), scheduled: 1_772_449_200, order: 4,
            templateID: "t-2", repeatRule: .weekdays, number: 2)
        snoozed.snoozedUntil = 1_772_453_700
        w.tasks = [done, snoozed]
        w.tomorrow = [
            TaskItem(
                id: "20260303-5", title: "Dentist", time: WallTime(hour: 9, minute: 0)!,
                dayKey: Fixture.day("2026-03-03"), scheduled: 1_772_524_800, order: 5, number: 1)
        ]
        w.templates = [
            Template(
                id: "t-2", title: "Call Mum", time: WallTime(hour: 12, minute: 0)!, repeatRule: .weekdays,
                firstDay: Fixture.day("2026-03-01"), order: 2)
        ]
        w.mutations = 11
        w.serial = 5
        // Through schema 2: the open day and the next day's task added in advance count as touched.
        w.touchedDays = ["2026-03-02", "2026-03-03"].map(Fixture.day)
        // From schema 3 on: each day's tasks numbered in creation order.
        w.lastNumber = 2
        w.lastTomorrowNumber = 1
        return w
    }

    @Test func aSchema0StateAndHistoryAreMigratedOnLoad() throws {
        let dir = TempDir()
        try FileManager.default.createDirectory(atPath: dir.store, withIntermediateDirectories: true)
        write(stateSchema0, to: dir.file("state.json"))
        write(historySchema0 + "\n", to: dir.file("history-2026.jsonl"))

        let (store, loaded) = try openLoaded(dir.store)
        #expect(loaded.start == .state(Self.expectedWorld()))
        #expect(loaded.migratedFrom == 0)
        #expect(loaded.problems.isEmpty)
        // The original bytes are kept once; the state file itself is rewritten only by the next save.
        #expect(bytes(dir.file("state.json.schema0")) == Array(stateSchema0.utf8))
        #expect(bytes(dir.file("state.json")) == Array(stateSchema0.utf8))

        #expect(store.lastHistoryDay == Fixture.day("2026-03-01"))
        let record = try #require(try store.history(day: Fixture.day("2026-03-01")))
        #expect(record.petAtOpen == PetState(stageIndex: 2, stageXP: 12))
        #expect(record.petAtClose == PetState(stageIndex: 2, stageXP: 7))
        #expect(record.tasks.first?.snoozedUntil == 1_772_349_300)
        // Through schema 1 too: not a rest day, and the daily result's −3 derived from −5 = −2 (a miss) − 3.
        #expect(!record.rest && record.resultXP == -3)

        // A save writes the current schema; history lines stay as written (append-only) and keep reading.
        try store.save(Self.expectedWorld())
        let saved = String(decoding: bytes(dir.file("state.json")) ?? [], as: UTF8.self)
        #expect(saved.contains(#""schema":4,"#) && !saved.contains(#""pet":"#))
        store.close()
        let (again, reloaded) = try openLoaded(dir.store)
        #expect(reloaded.start == .state(Self.expectedWorld()))
        #expect(reloaded.migratedFrom == nil)
        #expect(try again.recentHistory(days: 5).count == 1)
    }

    @Test func aNewerStateIsRefusedTouchingNothing() throws {
        let dir = TempDir()
        try FileManager.default.createDirectory(atPath: dir.store, withIntermediateDirectories: true)
        let newer = #"{"schema":5,"world":{"whatever":"comes next"}}"#
        write(newer, to: dir.file("state.json"))
        write(#"{"torn":"#, to: dir.file("history-2026.jsonl"))  // would be repaired, were it not refused
        write("x", to: dir.file(".state.json.tmp"))
        let before = snapshot(dir.store)

        let store = try PetStore.open(directory: dir.store)
        #expect {
            _ = try store.load(now: Fixture.now)
        } throws: { error in
            guard let e = error as? StoreError, e.kind == .newerSchema(found: 5, supported: 4) else { return false }
            return e.message.contains("newer Pet Progress") && e.message.contains("Nothing was changed")
        }
        #expect(throws: StoreError.self) { try store.save(Fixture.world(closedThrough: nil)) }
        store.close()
        #expect(snapshot(dir.store) == before)
    }

    @Test func aNewerHistoryLineIsRefusedTouchingNothing() throws {
        let dir = TempDir()
        do {
            let (store, _) = try openLoaded(dir.store)
            try store.save(Fixture.world(closedThrough: Fixture.day("2026-03-01")))
            store.close()
        }
        write(#"{"record":{"day":{"key":"2026-03-02"}},"schema":7}"# + "\n", to: dir.file("history-2026.jsonl"))
        let before = snapshot(dir.store)
        let store = try PetStore.open(directory: dir.store)
        #expect {
            _ = try store.load(now: Fixture.now)
        } throws: { ($0 as? StoreError)?.kind == .newerSchema(found: 7, supported: 4) }
        store.close()
        #expect(snapshot(dir.store) == before)
    }

    /// Every file but the lock, with its bytes.
    func snapshot(_ dir: String) -> [String: [UInt8]] {
        Dictionary(uniqueKeysWithValues: names(dir).filter { $0 != ".lock" }.map { ($0, bytes(dir + "/" + $0) ?? []) })
    }
}

/// The schema 1 files the release before rest days wrote (`Fixtures/schema1/README.md`).
enum Schema1Fixture {
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().path + "/Fixtures/schema1"
    static var state: [UInt8] { bytes(directory + "/state.json") ?? [] }
    static var history: [UInt8] { bytes(directory + "/history-2026.jsonl") ?? [] }

    /// A store directory holding copies of the fixture's files.
    static func install(in dir: TempDir) throws {
        try FileManager.default.createDirectory(atPath: dir.store, withIntermediateDirectories: true)
        write(String(decoding: state, as: UTF8.self), to: dir.file("state.json"))
        write(String(decoding: history, as: UTF8.self), to: dir.file("history-2026.jsonl"))
    }
}

/// The release before rest days (schema 1), from the files it really wrote.
@Suite struct Schema1MigrationTests {
    /// A JSON text as a comparable object.
    static func object(_ bytes: [UInt8]) -> NSDictionary? {
        (try? JSONSerialization.jsonObject(with: Data(bytes))) as? NSDictionary
    }

    @Test func theReleasedStateAndHistoryAreMigratedKeepingEveryField() throws {
        let dir = TempDir()
        try Schema1Fixture.install(in: dir)
        let (store, loaded) = try openLoaded(dir.store)
        guard case .state(let world) = loaded.start else {
            Issue.record("not loaded: \(loaded)")
            return
        }
        #expect(loaded.migratedFrom == 1)
        #expect(loaded.problems.isEmpty)
        #expect(world.restDays.isEmpty, "no day was marked before rest days existed")
        // Every field of the old world survives: the migrated world, encoded, is the old one plus
        // `restDays` (schema 2), the touched days: the open day and the next day's task (schema 3),
        // and each day's tasks numbered in creation order, which is their order here (schema 4).
        let old = try #require(Self.object(Schema1Fixture.state)?["world"] as? [String: Any])
        let encoded = try #require(Self.object(StateFile.encode(world))?["world"] as? NSDictionary)
        func numbered(_ key: String) -> [[String: Any]] {
            ((old[key] as? [[String: Any]]) ?? []).enumerated().map { $1.merging(["number": $0 + 1]) { $1 } }
        }
        #expect(
            encoded
                == (old.merging([
                    "restDays": [Any](), "touchedDays": ["2026-03-03", "2026-03-04"], "lookBackTouched": true,
                    "tasks": numbered("tasks"), "tomorrow": numbered("tomorrow"), "lastNumber": 5,
                    "lastTomorrowNumber": 1,
                ]) { $1 } as NSDictionary))
        #expect(world.lastClosedDay == Fixture.day("2026-03-02") && world.tasks.count == 5)
        #expect(world.settings.rollover && world.settings.graceMinutes == 45 && world.settings.snoozeMinutes == 20)
        // The original bytes are kept once; the file itself is rewritten only by the next save.
        #expect(bytes(dir.file("state.json.schema1")) == Schema1Fixture.state)
        #expect(bytes(dir.file("state.json")) == Schema1Fixture.state)

        // The old history line reads as not a rest day, its daily result derived: 4 of 5 done,
        // +8 = 7 (awards) − 2 (one miss) + 3.
        let record = try #require(try store.history(day: Fixture.day("2026-03-02")))
        #expect(!record.rest && record.resultXP == 3 && record.xpChange == 8)
        #expect(record.tasks.map(\.xp) == [1, 2, 2, 2, 0])
        #expect(store.lastHistoryDay == Fixture.day("2026-03-02"))

        // The migrated world runs on: Tuesday closes as a rest day and its record (schema 3) is
        // appended after the schema 1 line; both read back, and a reload needs no migration.
        var next = world
        let ctx = Context(now: unix("2026-03-03T12:00:00+01:00"), zone: Fixture.zone)
        try next.setRest(from: "today", to: "today", rest: true, ctx)
        let closeouts = next.closeDueDays(Context(now: unix("2026-03-04T09:00:00+01:00"), zone: Fixture.zone))
        try store.closeDays(closeouts, world: next)
        store.close()
        let (again, reloaded) = try openLoaded(dir.store)
        #expect(reloaded.start == .state(next) && reloaded.migratedFrom == nil && reloaded.problems.isEmpty)
        let both = try again.history(in: HistoryRange(from: nil, to: nil))
        #expect(both.records.map(\.day.key) == ["2026-03-02", "2026-03-03"].map(Fixture.day) && !both.more)
        #expect(both.records.map(\.rest) == [false, true])
        #expect(both.records.last?.xpChange == 1 && both.records.last?.resultXP == 0, "the late Stretch only")
        let lines = String(decoding: bytes(dir.file("history-2026.jsonl")) ?? [], as: UTF8.self).split(separator: "\n")
        #expect(lines.count == 2 && lines[0].hasSuffix(#""schema":1}"#) && lines[1].hasSuffix(#""schema":4}"#))
    }
}
