import Foundation
import PetCore
import Testing

@testable import PetStore

/// `PetStore.history(in:limit:)`, behind `GetHistory`: a range, at most `limit` records, the latest
/// when more match, reading only the year files the range needs.
@Suite struct HistoryQueryTests {
    /// 100 closed days from 2025-11-01 to 2026-02-08, across two year files.
    static func store(_ dir: TempDir) throws -> (PetStore, [DayRecord]) {
        let first = Fixture.day("2025-11-01")
        let records = (0..<100).map { Fixture.record(first.adding(days: $0), tasks: 1 + $0 % 3) }
        let (store, _) = try openLoaded(dir.store)
        try store.closeDays(records, world: Fixture.world(closedThrough: first.adding(days: 99)))
        return (store, records)
    }

    @Test func pagingBackwardsReturnsEveryDayOnceInOrder() throws {
        let dir = TempDir()
        let (store, records) = try Self.store(dir)
        defer { store.close() }
        var pages: [[DayRecord]] = []
        var mores: [Bool] = []
        var to: DayKey? = nil
        while true {
            let (page, more) = try store.history(in: HistoryRange(from: nil, to: to), limit: 31)
            pages.append(page)
            mores.append(more)
            guard more, let earliest = page.first?.day.key else { break }
            to = earliest.adding(days: -1)
        }
        #expect(pages.map(\.count) == [31, 31, 31, 7])
        #expect(mores == [true, true, true, false])
        #expect(Array(pages.reversed().joined()) == records)
    }

    @Test(arguments: [
        ("2026-01-01", "2026-01-31", 31, false, "2026-01-01"),
        ("2026-01-01", "", 31, true, "2026-01-09"),
        ("2025-12-25", "2026-01-05", 12, false, "2025-12-25"),
        ("", "2025-11-03", 3, false, "2025-11-01"),
        ("2026-02-08", "2026-02-08", 1, false, "2026-02-08"),
        ("2026-02-09", "", 0, false, ""),
        ("2024-01-01", "2024-12-31", 0, false, ""),
    ])
    func ranges(from: String, to: String, count: Int, more: Bool, earliest: String) throws {
        let dir = TempDir()
        let (store, _) = try Self.store(dir)
        defer { store.close() }
        let (page, hasMore) = try store.history(in: try HistoryRange.parse(from: from, to: to), limit: 31)
        #expect(page.count == count && hasMore == more)
        #expect(page.first?.day.key.description ?? "" == earliest)
        #expect(zip(page, page.dropFirst()).allSatisfy { $0.day.key < $1.day.key })
    }

    /// A range in 2026 never opens 2025's file: with a directory in its place (which any read
    /// fails on) the answer is still right; a range that needs 2025 does fail.
    @Test func onlyTheYearsTheRangeNeedsAreRead() throws {
        let dir = TempDir()
        let (store, _) = try Self.store(dir)
        defer { store.close() }
        try FileManager.default.removeItem(atPath: dir.file("history-2025.jsonl"))
        try FileManager.default.createDirectory(
            atPath: dir.file("history-2025.jsonl"), withIntermediateDirectories: false)
        let (page, more) = try store.history(in: try HistoryRange.parse(from: "2026-01-01", to: ""), limit: 31)
        #expect(page.count == 31 && more)
        let (latest, older) = try store.history(in: try HistoryRange.parse(from: "", to: ""), limit: 31)
        #expect(latest.count == 31 && older, "39 days of 2026 fill the page without 2025")
        #expect(throws: StoreError.self) {
            _ = try store.history(in: try HistoryRange.parse(from: "", to: "2026-01-05"), limit: 31)
        }
    }
}
