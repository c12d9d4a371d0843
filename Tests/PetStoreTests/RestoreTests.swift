import Foundation
import Glibc
import PetCore
import Testing

@testable import PetStore

/// `PetStore.restore` (petprogress(7) §5, import): the whole store replaced in one durable step, the
/// previous data kept, and a swap interrupted after its commit completed at the next load.
@Suite struct RestoreTests {
    static let monday = Fixture.day("2026-03-02")

    @Test func restoreReplacesEverythingAndKeepsTheOld() throws {
        let dir = TempDir()
        let (store, _) = try openLoaded(dir.store)
        defer { store.close() }
        let old = Fixture.record(Self.monday, tasks: 2)
        try store.closeDays([old], world: Fixture.world(closedThrough: Self.monday, mutations: 7))
        let before = (bytes(dir.file("state.json")), bytes(dir.file("history-2026.jsonl")))

        let records = [Fixture.record(Fixture.day("2025-12-30"), tasks: 1), Fixture.record(Self.monday, tasks: 3)]
        let backup = Backup(world: Fixture.world(closedThrough: Self.monday, mutations: 42), history: records)
        let (kept, loaded) = try store.restore(backup, now: Fixture.now)
        #expect(loaded.start == .state(backup.world))
        #expect(try store.allHistory() == records)
        #expect(bytes(kept + "/state.json") == before.0 && bytes(kept + "/history-2026.jsonl") == before.1)
        #expect(names(dir.store).filter { $0.hasPrefix(".import") }.isEmpty)
        // What the export carries reads back as itself.
        let document = Array(#"{"format":"f","schema":2,"store":"#.utf8) + (try backup.encoded()) + [UInt8(ascii: "}")]
        let read = try Backup.read(document: document, format: "f", schema: 2)
        #expect(read.world == backup.world && read.history == records)
        let rich = Backup(world: try Fixture.richWorld(), history: [])
        let richDocument =
            Array(#"{"format":"f","schema":2,"store":"#.utf8) + (try rich.encoded()) + [UInt8(ascii: "}")]
        #expect(try Backup.read(document: richDocument, format: "f", schema: 2).world == rich.world)
    }

    /// The data sets a restore sets aside are the import's (petprogress(7) §5): the latest 3 kept,
    /// and a pruned name never reused — five restores in one second leave the last three, newest
    /// holding the state the fifth replaced.
    @Test func fiveRestoresLeaveThree() throws {
        let dir = TempDir()
        let (store, _) = try openLoaded(dir.store)
        defer { store.close() }
        try GenerationsTests.close(store, GenerationsTests.days(9))
        var kept: [String] = []
        var replaced: [UInt8]? = nil
        for _ in 0..<5 {
            let newest = try #require(try store.generationList().first { $0.kind == .closeout })
            replaced = bytes(dir.file("state.json"))
            let outcome = try store.restore(newest, now: Fixture.now, dryRun: false)
            kept.append(String(outcome.keptIn.split(separator: "/").last ?? ""))
            #expect(names(dir.store).filter { $0.hasPrefix("import-backup-") }.count == min(kept.count, 3))
        }
        #expect(Set(kept).count == 5, "no name used twice: \(kept)")
        let left = names(dir.store).filter { $0.hasPrefix("import-backup-") }.sorted()
        #expect(Set(left) == Set(kept.suffix(3)), "\(left) of \(kept)")
        #expect(bytes(dir.file("\(kept[4])/state.json")) == replaced)
        #expect(names(dir.store).filter { $0.hasPrefix(".import") }.isEmpty)
    }

    @Test func aCommittedSwapIsCompletedAtLoadAndAnUncommittedOneRemoved() throws {
        let dir = TempDir()
        do {
            let (store, _) = try openLoaded(dir.store)
            try store.save(Fixture.world(closedThrough: nil, mutations: 3))
            store.close()
        }
        // Staged but not committed: the old store stays.
        mkdir(dir.file(".import-staged"), 0o700)
        write("{}", to: dir.file(".import-staged/state.json"))
        // Committed, not yet moved into place: the new store wins.
        mkdir(dir.file(".import-ready"), 0o700)
        let new = Fixture.world(closedThrough: nil, mutations: 9)
        write(String(decoding: StateFile.encode(new), as: UTF8.self), to: dir.file(".import-ready/state.json"))
        let (store, loaded) = try openLoaded(dir.store)
        defer { store.close() }
        #expect(loaded.start == .state(new))
        #expect(names(dir.store).filter { $0.hasPrefix(".import") }.isEmpty)
    }
}
