import Foundation
import Glibc
import PetCore
import Testing

@testable import PetStore

@Suite struct HistoryRepairTests {
    let d1 = Fixture.day("2026-12-30"), d2 = Fixture.day("2026-12-31"), d3 = Fixture.day("2027-01-01")

    /// A store with records for d1 and d2 and a state closed through d2.
    func seeded() throws -> TempDir {
        let dir = TempDir()
        let (store, _) = try openLoaded(dir.store)
        try store.closeDays(
            [Fixture.record(d1), Fixture.record(d2)], world: Fixture.world(closedThrough: d2, mutations: 2))
        store.close()
        return dir
    }

    func line(_ key: DayKey) throws -> String {
        String(decoding: try HistoryLine.encode(Fixture.record(key)), as: UTF8.self)
    }

    func append(_ text: String, to path: String) throws {
        let fd = open(path, O_WRONLY | O_APPEND | O_CLOEXEC)
        try #require(fd >= 0)
        defer { close(fd) }
        let data = Array(text.utf8)
        #expect(data.withUnsafeBytes { write(fd, $0.baseAddress, data.count) } == data.count)
    }

    @Test func aTornLastLineIsCut() throws {
        let dir = try seeded()
        let path = dir.file("history-2026.jsonl")
        let good = try #require(bytes(path))
        try append(String(try line(d3).prefix(57)), to: path)  // a crash mid-append
        let (store, loaded) = try openLoaded(dir.store)
        #expect(bytes(path) == good)
        #expect(store.lastHistoryDay == d2)
        #expect(loaded.problems.contains { $0.contains("torn last line") })
        #expect(try store.recentHistory(days: 9).map(\.day.key) == [d1, d2])
    }

    @Test func aTornTailIsCutOnAnEmptyStartToo() throws {
        let dir = try seeded()
        try FileManager.default.removeItem(atPath: dir.file("state.json"))
        let path = dir.file("history-2026.jsonl")
        let good = try #require(bytes(path))
        try append("{\"record\":{\"da", to: path)
        let (_, loaded) = try openLoaded(dir.store)
        #expect(bytes(path) == good)
        #expect(loaded.start == .empty(lastClosedDay: d2))
    }

    @Test func recordsAfterTheStatesLastClosedDayAreDropped() throws {
        // A crash between the history append and the state replace: the state (d1) is authoritative.
        let dir = TempDir()
        do {
            let (store, _) = try openLoaded(dir.store)
            try store.closeDays([Fixture.record(d1)], world: Fixture.world(closedThrough: d1, mutations: 1))
            store.close()
        }
        let path = dir.file("history-2026.jsonl")
        let good = try #require(bytes(path))
        try append(try line(d2), to: path)
        write(try line(d3), to: dir.file("history-2027.jsonl"))

        let (store, loaded) = try openLoaded(dir.store)
        #expect(bytes(path) == good)
        #expect(!FileManager.default.fileExists(atPath: dir.file("history-2027.jsonl")))
        #expect(store.lastHistoryDay == d1)
        #expect(loaded.problems.count == 2)
        // The closeout runs again and records each day once.
        try store.closeDays(
            [Fixture.record(d2), Fixture.record(d3)], world: Fixture.world(closedThrough: d3, mutations: 3))
        #expect(try store.recentHistory(days: 9).map(\.day.key) == [d1, d2, d3])
    }

    @Test func aStateThatClosedNoDayDropsEveryRecord() throws {
        // First run: state saved with no closed day, then a closeout appended and crashed.
        let dir = TempDir()
        do {
            let (store, _) = try openLoaded(dir.store)
            try store.save(Fixture.world(closedThrough: nil))
            store.close()
        }
        write(try line(d1), to: dir.file("history-2026.jsonl"))
        let (store, _) = try openLoaded(dir.store)
        #expect(store.lastHistoryDay == nil)
        #expect(!FileManager.default.fileExists(atPath: dir.file("history-2026.jsonl")))
    }

    @Test func unreadableLinesAreKeptSkippedAndReported() throws {
        let dir = try seeded()
        let path = dir.file("history-2026.jsonl")
        try append("this line is damaged\n", to: path)
        let before = try #require(bytes(path))
        let (store, loaded) = try openLoaded(dir.store)
        #expect(bytes(path) == before)
        #expect(store.lastHistoryDay == d2)
        #expect(loaded.problems.contains { $0.contains("1 unreadable line") })
        #expect(try store.recentHistory(days: 9).map(\.day.key) == [d1, d2])
    }

    @Test func startUpFindsTheLastDayFromTheNewestFilesTail() throws {
        let dir = try seeded()
        // An empty newest file (all its records were dropped) sends the search to the year before.
        write("", to: dir.file("history-2027.jsonl"))
        try FileManager.default.removeItem(atPath: dir.file("state.json"))
        let (store, loaded) = try openLoaded(dir.store)
        #expect(store.lastHistoryDay == d2)
        #expect(loaded.start == .empty(lastClosedDay: d2))
    }

    @Test func aStartWhereHistoryEndsAsTheStateSaysReadsNoHistory() throws {
        // The state records the newest history file and its length; when they still match, the
        // start-up trusts them and reads nothing (here shown by same-length bytes it never sees).
        let dir = try seeded()
        let path = dir.file("history-2026.jsonl")
        let length = try #require(bytes(path)).count
        let state = String(decoding: try #require(bytes(dir.file("state.json"))), as: UTF8.self)
        #expect(state.contains(#""history":"2026 \#(length) 2026-12-31""#))
        write(String(repeating: "?", count: length - 1) + "\n", to: path)
        let (store, loaded) = try openLoaded(dir.store)
        #expect(store.lastHistoryDay == d2)
        #expect(loaded.problems.isEmpty)
        // One byte more and it is checked, the damage reported.
        store.close()
        try append("\n", to: path)
        let (again, reloaded) = try openLoaded(dir.store)
        #expect(reloaded.problems.contains { $0.contains("unreadable") })
        #expect(again.lastHistoryDay == nil)
    }

    @Test func theFastDayReaderAgreesWithTheFullDecoder() throws {
        for key in [d1, d3, Fixture.day("0999-01-02")] {
            // A day keyed in the year 999 whose instants are within the bounds (1970–9999).
            let made = Fixture.record(key, tasks: 2)
            let record = key.year >= 1970 ? made : made.on(Day(key: key, start: 0, end: 86_400))
            let bytes = try HistoryLine.encode(record).dropLast()
            #expect(HistoryLine.fastDay(of: bytes) == key)
            guard case .record(let r) = HistoryLine.decode(bytes) else {
                Issue.record("no record")
                continue
            }
            #expect(r.day.key == key)
        }
        #expect(HistoryLine.fastDay(of: ArraySlice(historySchema0.utf8)) == nil)  // older lines take the full path
        guard case .day(let old) = HistoryLine.day(of: ArraySlice(historySchema0.utf8)) else {
            Issue.record("schema 0")
            return
        }
        #expect(old == Fixture.day("2026-03-01"))
    }

    @Test func longLinesAreReadAcrossChunks() throws {
        // A day with 200 long-titled tasks makes a line far longer than one read chunk.
        let dir = TempDir()
        let key = Fixture.day("2026-05-05")
        let nine = Instant(key.daysSinceEpoch) * 86_400 + 9 * 3600
        var w = PetWorld(now: nine, zone: .utc, lastClosedDay: key.adding(days: -1))
        for n in 0..<200 {
            try w.addTask(
                title: String(repeating: "long title ", count: 17) + "\(n)", time: "10:00",
                Context(now: nine, zone: .utc))
        }
        let big = try #require(w.closeDueDays(Context(now: nine + 86_400, zone: .utc)).first?.record)
        #expect(try HistoryLine.encode(big).count > 3 * BackwardLines.chunk)
        do {
            let (store, _) = try openLoaded(dir.store)
            try store.closeDays(
                [Fixture.record(key.adding(days: -1)), big], world: Fixture.world(closedThrough: key))
            store.close()
        }
        try append(String(repeating: "x", count: 9000), to: dir.file("history-2026.jsonl"))  // a long torn tail
        let (store, loaded) = try openLoaded(dir.store)
        #expect(store.lastHistoryDay == key)
        #expect(loaded.problems.count == 1)
        #expect(try store.history(day: key) == big)
    }
}

extension DayRecord {
    /// The record moved onto `day`'s instants (its tasks at the day's first hour).
    fileprivate func on(_ day: Day) -> DayRecord {
        let moved = tasks.map { task in
            var t = task
            t.scheduled = day.start + 3600
            t.completedAt = t.completedAt.map { _ in day.start + 3600 }
            return t
        }
        return DayRecord(
            day: day, tasks: moved, done: done, total: total, rate: rate, petAtOpen: petAtOpen, petAtClose: petAtClose,
            xpChange: xpChange, rest: rest, resultXP: resultXP)
    }
}
