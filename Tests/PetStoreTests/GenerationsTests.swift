import Foundation
import PetCore
import Testing

@testable import PetStore

/// petprogress(7) §5, generations and fallback: a snapshot of the committed state at each closeout,
/// the latest 7 kept; a damaged state file falls back to the newest snapshot that loads, else the
/// pet history recorded at its last close, else an empty start.
@Suite struct GenerationsTests {
    /// Closes `days` one closeout each (records with one task, done: the pet gains), returning the
    /// worlds committed.
    @discardableResult
    static func close(_ store: PetStore, _ days: [DayKey]) throws -> [PetWorld] {
        var worlds: [PetWorld] = []
        for (n, day) in days.enumerated() {
            var world = Fixture.world(closedThrough: day, mutations: UInt64(n + 1))
            world.serial = UInt64(10 + n)
            try store.closeDays([Fixture.record(day, tasks: 1)], world: world)
            worlds.append(world)
        }
        return worlds
    }

    static func days(_ count: Int, from first: String = "2026-02-20") -> [DayKey] {
        (0..<count).map { Fixture.day(first).adding(days: $0) }
    }

    static func snapshots(_ dir: TempDir) -> [String] { names(dir.store).filter { $0.hasPrefix("state-") } }

    @Test func eachCloseoutWritesTheCommittedStateAndTheLatestSevenAreKept() throws {
        let dir = TempDir()
        let (store, _) = try openLoaded(dir.store)
        let days = Self.days(9)
        for (n, day) in days.enumerated() {
            try Self.close(store, [day])
            let kept = Array(days[max(0, n - 6)...n])
            #expect(Self.snapshots(dir) == kept.map { "state-\($0).json" }, "after closing \(day)")
            let name = dir.file("state-\(day).json")
            #expect(mode(name) == 0o600)
            #expect(bytes(name) == bytes(dir.file("state.json")), "the snapshot is the state just committed")
        }
        #expect(Self.snapshots(dir).count == 7)
        #expect(!names(dir.store).contains(Generations.temporaryName))
    }

    @Test func nothingIsWrittenBetweenCloseouts() throws {
        let dir = TempDir()
        let (store, _) = try openLoaded(dir.store)
        let d = Fixture.day("2026-03-01")
        try Self.close(store, [d])
        let before = bytes(dir.file("state-2026-03-01.json"))
        try store.save(Fixture.world(closedThrough: d, mutations: 7))
        // A commit that closes no new day (a retry) is not a closeout either.
        try store.closeDays([Fixture.record(d)], world: Fixture.world(closedThrough: d, mutations: 8))
        #expect(Self.snapshots(dir) == ["state-2026-03-01.json"])
        #expect(bytes(dir.file("state-2026-03-01.json")) == before)
    }

    /// Makes a store that closed `count` days, then damages its state file.
    static func damagedStore(_ dir: TempDir, closing count: Int) throws -> [PetWorld] {
        let (store, _) = try openLoaded(dir.store)
        let worlds = try close(store, days(count))
        store.close()
        write("{\"schema\":2,\"world\":", to: dir.file("state.json"))
        return worlds
    }

    @Test func aDamagedStateStartsFromTheNewestSnapshot() throws {
        let dir = TempDir()
        let worlds = try Self.damagedStore(dir, closing: 3)
        let (store, loaded) = try openLoaded(dir.store)
        #expect(loaded.start == .state(worlds[2]))
        #expect(loaded.quarantinedTo != nil)
        let recovery = try #require(loaded.recovery)
        #expect(recovery.source == .snapshot && recovery.day == Fixture.day("2026-02-22") && !recovery.acknowledged)
        #expect(recovery.lost == "changes since the closeout of 2026-02-22")
        #expect(loaded.problems.count == 1)
        #expect(
            loaded.problems[0].contains("restored the state saved at the closeout of 2026-02-22"), "\(loaded.problems)")
        // The recovered world saves, and the next start is an ordinary one that still reports it.
        try store.save(worlds[2])
        store.close()
        let (_, again) = try openLoaded(dir.store)
        #expect(again.start == .state(worlds[2]) && again.quarantinedTo == nil)
        #expect(again.recovery == recovery)
    }

    @Test func aDamagedNewestSnapshotIsPassedOverForAnOlderOneBroughtForwardByHistory() throws {
        let dir = TempDir()
        let worlds = try Self.damagedStore(dir, closing: 3)
        let newest = dir.file("state-2026-02-22.json")
        let damaged = Array((bytes(newest) ?? []).prefix(40))
        write(String(decoding: damaged, as: UTF8.self), to: newest)
        let (store, loaded) = try openLoaded(dir.store)
        let last = Fixture.record(Fixture.day("2026-02-22"), tasks: 1)
        #expect(
            loaded.start
                == .rebuilt(pet: last.petAtClose, lastClosedDay: Fixture.day("2026-02-22"), carried: worlds[1]))
        #expect(loaded.recovery?.source == .snapshot && loaded.recovery?.day == Fixture.day("2026-02-21"))
        #expect(bytes(newest) == damaged, "a damaged snapshot is left as it is")
        let world = loaded.world(now: Fixture.now, zone: Fixture.zone)
        #expect(world.openingPet == last.petAtClose && world.lastClosedDay == Fixture.day("2026-02-22"))
        #expect(world.serial == worlds[1].serial && world.mutations == worlds[1].mutations)
        try store.save(world)  // history is kept whole: saving the brought-forward world is consistent
        #expect(try store.recentHistory(days: 10).map(\.day.key) == Self.days(3))
    }

    @Test func withoutASnapshotThePetIsRebuiltFromHistoryWithDefaultSettings() throws {
        let dir = TempDir()
        try Self.damagedStore(dir, closing: 3)
        for name in Self.snapshots(dir) { try FileManager.default.removeItem(atPath: dir.file(name)) }
        let (store, loaded) = try openLoaded(dir.store)
        let last = Fixture.record(Fixture.day("2026-02-22"), tasks: 1)
        #expect(loaded.start == .rebuilt(pet: last.petAtClose, lastClosedDay: Fixture.day("2026-02-22"), carried: nil))
        #expect(last.petAtClose != .hatchling, "the rebuilt pet is history's, not a new one")
        let recovery = try #require(loaded.recovery)
        #expect(recovery.source == .history && recovery.day == Fixture.day("2026-02-22"))
        let world = loaded.world(now: Fixture.now, zone: Fixture.zone)
        #expect(world.settings == Settings() && world.openingPet == last.petAtClose)
        #expect(world.openDay.key > Fixture.day("2026-02-22"))
        try store.save(world)
    }

    @Test func withNothingToRecoverTheStartIsEmpty() throws {
        let dir = TempDir()
        try FileManager.default.createDirectory(atPath: dir.store, withIntermediateDirectories: true)
        write("not json", to: dir.file("state.json"))
        let (_, loaded) = try openLoaded(dir.store)
        #expect(loaded.start == .empty(lastClosedDay: nil))
        #expect(loaded.recovery?.source == .empty && loaded.recovery?.day == nil)
        #expect(loaded.problems.first?.contains("nothing could be recovered") == true)
    }

    @Test func anAcknowledgementOutlivesARestart() throws {
        let dir = TempDir()
        let worlds = try Self.damagedStore(dir, closing: 2)
        do {
            let (store, loaded) = try openLoaded(dir.store)
            #expect(loaded.recovery?.acknowledged == false)
            try store.save(worlds[1])  // as the daemon's start-up does
            store.close()
        }
        let (store, loaded) = try openLoaded(dir.store)
        #expect(loaded.quarantinedTo == nil && loaded.start == .state(worlds[1]))
        #expect(loaded.recovery?.acknowledged == false, "not acknowledged: still to show after a restart")
        #expect(try store.acknowledgeRecovery()?.acknowledged == true)
        #expect(mode(dir.file("recovery.json")) == 0o600)
        store.close()
        let (_, after) = try openLoaded(dir.store)
        #expect(after.recovery?.acknowledged == true && after.recovery?.source == .snapshot)
    }

    /// A crash after the damaged file was set aside and before the recovered state was saved: the
    /// next start finds no state file but the recorded recovery, and recovers again rather than
    /// starting over. (A missing state file without one is a first run.)
    @Test func aMissingStateFileAfterARecoveryRecoversAgain() throws {
        let dir = TempDir()
        let worlds = try Self.damagedStore(dir, closing: 2)
        do {
            let (store, _) = try openLoaded(dir.store)
            store.close()  // no save: the crash
        }
        #expect(bytes(dir.file("state.json")) == nil)
        let (_, loaded) = try openLoaded(dir.store)
        #expect(loaded.start == .state(worlds[1]) && loaded.quarantinedTo == nil)
        #expect(loaded.recovery?.source == .snapshot)
        #expect(
            loaded.problems.first?.contains("is missing after an interrupted recovery") == true, "\(loaded.problems)")
    }

    @Test func aStoreThatNeverRecoveredHasNothingToAcknowledge() throws {
        let dir = TempDir()
        let (store, loaded) = try openLoaded(dir.store)
        #expect(loaded.recovery == nil)
        #expect(try store.acknowledgeRecovery() == nil)
        #expect(!names(dir.store).contains("recovery.json"))
    }
}
