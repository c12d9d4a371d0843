import Foundation
import PetCore
import Testing

@testable import PetStore

@Suite struct RoundTripTests {
    @Test func everyFieldOfTheStateRoundTrips() throws {
        let dir = TempDir()
        let world = try Fixture.richWorld()
        // The fixture must exercise every key, optional ones included, or the round trip proves little.
        let json = String(decoding: StateFile.encode(world), as: UTF8.self)
        for key in [
            "settings", "resetTime", "graceMinutes", "snoozeMinutes", "rollover", "openingPet", "openDay",
            "openDayLive", "tasks", "tomorrow", "templates", "lastClosedDay", "mutations", "serial",
            "completedAt", "completedSeq", "xp", "snoozedUntil", "templateID", "repeatRule", "firstDay",
            "restDays",
        ] {
            #expect(json.contains("\"\(key)\""), "fixture lacks \(key)")
        }
        do {
            let (store, loaded) = try openLoaded(dir.store)
            #expect(loaded.start == .empty(lastClosedDay: nil))
            try store.save(world)
            store.close()
        }
        let (_, again) = try openLoaded(dir.store)
        #expect(again.start == .state(world))
        #expect(again.problems.isEmpty)
        #expect(again.migratedFrom == nil)
    }

    @Test func historyRecordsRoundTripAndAreFoundByDayAndRecency() throws {
        let dir = TempDir()
        let days = ["2025-12-30", "2025-12-31", "2026-01-01", "2026-01-03"].map(Fixture.day)
        let records = days.map { Fixture.record($0) } + [Fixture.record(Fixture.day("2026-01-04"), tasks: 0)]
        do {
            let (store, _) = try openLoaded(dir.store)
            try store.closeDays(records, world: Fixture.world(closedThrough: Fixture.day("2026-01-04")))
            store.close()
        }
        #expect(names(dir.store).contains("history-2025.jsonl"))
        #expect(names(dir.store).contains("history-2026.jsonl"))
        let (store, loaded) = try openLoaded(dir.store)
        #expect(store.lastHistoryDay == Fixture.day("2026-01-04"))
        #expect(loaded.problems.isEmpty)
        #expect(try store.history(day: Fixture.day("2025-12-31")) == records[1])
        #expect(try store.history(day: Fixture.day("2026-01-02")) == nil)
        #expect(try store.recentHistory(days: 3) == Array(records.suffix(3)))
        #expect(try store.recentHistory(days: 100) == records)
        #expect(try store.recentHistory(days: 0) == [])
    }

    @Test func aDayIsNeverRecordedTwice() throws {
        let dir = TempDir()
        let (store, _) = try openLoaded(dir.store)
        let d1 = Fixture.day("2026-03-01")
        let d2 = Fixture.day("2026-03-02")
        try store.closeDays([Fixture.record(d1)], world: Fixture.world(closedThrough: d1, mutations: 1))
        try store.closeDays(
            [Fixture.record(d1), Fixture.record(d2)], world: Fixture.world(closedThrough: d2, mutations: 2))
        try store.closeDays([Fixture.record(d2)], world: Fixture.world(closedThrough: d2, mutations: 3))
        #expect(try store.recentHistory(days: 10).map(\.day.key) == [d1, d2])
    }

    @Test func filesAre0600AndTheDirectory0700() throws {
        let dir = TempDir()
        let (store, _) = try openLoaded(dir.store + "/nested/petprogress")
        let d = Fixture.day("2026-03-01")
        try store.closeDays([Fixture.record(d)], world: Fixture.world(closedThrough: d))
        let root = dir.store + "/nested/petprogress"
        #expect(mode(root) == 0o700)
        #expect(mode(dir.store + "/nested") == 0o700)
        for name in names(root) { #expect(mode(root + "/" + name) == 0o600, "\(name)") }
        // The closeout's snapshot is one of them (petprogress(7) §5).
        #expect(names(root) == [".lock", "history-2026.jsonl", "state-2026-03-01.json", "state.json"])
    }

    @Test func aSecondWriterIsRefusedWithAClearMessage() throws {
        let dir = TempDir()
        let first = try PetStore.open(directory: dir.store)
        do {
            _ = try PetStore.open(directory: dir.store)
            Issue.record("a second open succeeded")
        } catch {
            #expect(error.kind == .locked)
            #expect(error.message.contains("Another petprogressd (process \(getpid()))"))
            #expect(error.message.contains(dir.store))
        }
        first.close()
        _ = try PetStore.open(directory: dir.store)  // released on close
    }

    @Test func savingAStateThatWouldDropHistoryIsRefused() throws {
        let dir = TempDir()
        let (store, _) = try openLoaded(dir.store)
        let d = Fixture.day("2026-03-01")
        try store.closeDays([Fixture.record(d)], world: Fixture.world(closedThrough: d))
        #expect(throws: StoreError.self) { try store.save(Fixture.world(closedThrough: nil)) }
        #expect(throws: StoreError.self) {
            try store.closeDays(
                [Fixture.record(Fixture.day("2026-03-05"))], world: Fixture.world(closedThrough: d))
        }
        store.close()
        let (_, loaded) = try openLoaded(dir.store)
        #expect(loaded.start == .state(Fixture.world(closedThrough: d)))
    }

    @Test func anEmptyStartAdoptsHistorysLastDay() throws {
        let dir = TempDir()
        do {
            let (store, _) = try openLoaded(dir.store)
            let d = Fixture.day("2026-03-01")
            try store.closeDays([Fixture.record(d)], world: Fixture.world(closedThrough: d))
            store.close()
        }
        try FileManager.default.removeItem(atPath: dir.file("state.json"))
        let (_, loaded) = try openLoaded(dir.store)
        #expect(loaded.start == .empty(lastClosedDay: Fixture.day("2026-03-01")))
        #expect(names(dir.store).contains("history-2026.jsonl"))
    }
}
