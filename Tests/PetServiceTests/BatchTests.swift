import DBusKit
import PetCore
import PetStore
import Testing

@testable import PetService

/// Group commit at the service level: the calls of a batch (DBusKit's `ExportedObject.Batching`)
/// change memory only, one save makes them durable when the batch closes, and a failed save puts
/// the world back so that DBusKit can handle each call again on its own (BatchTests in
/// DBusKitTests check that half; the daemon's under load, IntegrationTests.Reliability).
@Suite("Batches of calls")
struct BatchTests {
    @Test("a batch's changes are saved once, when it closes, and survive a restart")
    func savedOnceAtClose() throws {
        let berlin = try LocalZone.named("Europe/Berlin")
        let f = try ServiceFixture(now: try berlin.at("2026-03-02", "08:10"), zone: berlin)
        defer { f.close() }
        let mutations = f.service.world.mutations
        var writesInside: [String] = []
        let kept = try f.batch {
            let water = try f.addTask("Water", "09:00")
            _ = try f.addTask("Walk", "10:00")
            _ = try f.succeed("MarkDone", [.string(water)])
            #expect(try f.failure("MarkDone", [.string(water)]) == "AlreadyDone", "later calls see earlier ones")
            writesInside = f.writes
        }
        #expect(kept)
        #expect(writesInside == [], "nothing saved while the batch is open")
        #expect(f.writes == ["save"])
        #expect(f.service.world.mutations == mutations + 3)
        #expect(f.clockReads == 4, "one refresh per message, as alone")
        let before = f.service.world
        try f.restart()
        #expect(f.service.world == before)
    }

    @Test("a batch whose save fails leaves the world as before it, for each call to run again")
    func failedSavePutsTheWorldBack() throws {
        let berlin = try LocalZone.named("Europe/Berlin")
        let f = try ServiceFixture(now: try berlin.at("2026-03-02", "08:10"), zone: berlin)
        defer { f.close() }
        let water = try f.addTask("Water", "09:00")
        let before = f.service.world
        f.forget()
        f.failNextWrites([ServiceFixture.diskFull])
        let kept = try f.batch {
            _ = try f.succeed("MarkDone", [.string(water)])
            _ = try f.addTask("Walk", "10:00")
        }
        #expect(!kept)
        #expect(f.writes == ["save"])
        #expect(f.service.world == before, "memory matches the disk again")
        #expect(f.logLines.contains { $0.hasPrefix("could not save a batch of changes") })

        // Run again on their own (as DBusKit does), each call saves, or fails, as it would alone.
        f.forget()
        f.failNextWrites([ServiceFixture.diskFull])
        #expect(try f.failure("MarkDone", [.string(water)]) == "StorageFailure")
        _ = try f.addTask("Walk", "10:00")
        #expect(f.writes == ["save", "save"])
        #expect(f.service.world.tasks.map(\.title) == ["Water", "Walk"])
        #expect(f.service.world.tasks.first?.isDone == false)
        let after = f.service.world
        try f.restart()
        #expect(f.service.world == after)
    }

    @Test("a batch of reads and refused changes writes nothing")
    func readsWriteNothing() throws {
        let berlin = try LocalZone.named("Europe/Berlin")
        let f = try ServiceFixture(now: try berlin.at("2026-03-02", "08:10"), zone: berlin)
        defer { f.close() }
        let kept = try f.batch {
            _ = try f.succeed("GetWidgetEntry")
            _ = try f.succeed("ListTasks", [.string("")])
            #expect(try f.failure("MarkDone", [.string("nope")]) == "NotFound")
        }
        #expect(kept)
        #expect(f.writes == [])
    }

    @Test("a refresh due a commit ends the open batch first: its changes, then the catch-up")
    func catchUpEndsTheBatchFirst() throws {
        let berlin = try LocalZone.named("Europe/Berlin")
        let f = try ServiceFixture(now: try berlin.at("2026-03-02", "08:10"), zone: berlin)
        defer { f.close() }
        let mutations = f.service.world.mutations
        let kept = try f.batch {
            _ = try f.addTask("Water", "09:30")
            f.now = try berlin.at("2026-03-02", "09:00:01")
            // The tick's snapshot is due: the batch is saved and ended, then the snapshot saved,
            // and this call is handled on its own (saved at once).
            _ = try f.addTask("Walk", "10:00")
            #expect(f.writes == ["endBatch", "save", "save", "save"])
            #expect(f.lastCall.refresh == ["PropertiesChanged(WidgetEntry)", "EntryChanged"])
        }
        #expect(kept)
        #expect(f.endedBatches == [true])
        #expect(f.writes == ["endBatch", "save", "save", "save"], "the batch's own close found nothing left")
        #expect(f.service.world.mutations == mutations + 2)
        #expect(f.service.world.snapshot?.tick == (try berlin.at("2026-03-02", "09:00")))
        let before = f.service.world
        try f.restart()
        #expect(f.service.world == before)
    }
}
