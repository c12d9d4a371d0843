import DBusKit
import PetCore
import PetStore
import Testing

@testable import PetService

/// Group commit, owned by the service: calls queued behind one another on a real connection
/// change memory only, one save makes them durable before any of their replies is sent, and a
/// failed save puts the world back and runs each call again on its own, so each gets the answer
/// it would have got alone (the daemon's under load: IntegrationTests.Reliability).
@Suite("Batches of calls")
struct BatchTests {
    @Test("a batch's changes are saved once, before its replies, and survive a restart")
    func savedOnceAtClose() throws {
        let berlin = try LocalZone.named("Europe/Berlin")
        let f = try ServiceFixture(now: try berlin.at("2026-03-02", "08:10"), zone: berlin)
        defer { f.close() }
        let mutations = f.service.world.mutations
        let water = "20260302-1"
        let replies = try f.queued([
            ("AddTask", [.string("Water"), .string("09:00")]),
            ("AddTask", [.string("Walk"), .string("10:00")]),
            ("MarkDone", [.string(water)]),
            ("MarkDone", [.string(water)]),
        ])
        #expect(try replies[0].get() == [.string(water)])
        #expect(throws: Never.self) { try replies[1].get() }
        #expect(throws: Never.self) { try replies[2].get() }
        #expect(errorName(replies[3]) == "AlreadyDone", "later calls see earlier ones")
        #expect(f.writes == ["save"], "one save for the batch")
        #expect(f.writesAtFirstReply == ["save"], "nothing answered before the batch was saved")
        #expect(
            f.busEvents == [
                "reply AddTask", "TasksChanged", "PropertiesChanged", "reply AddTask", "TasksChanged",
                "PropertiesChanged", "reply MarkDone", "TasksChanged", "PropertiesChanged", "error MarkDone",
            ], "each reply in order, then the signals its call caused")
        #expect(f.service.world.mutations == mutations + 3)
        #expect(f.clockReads == 4, "one refresh per message, as alone")
        let before = f.service.world
        try f.restart()
        #expect(f.service.world == before)
    }

    @Test("a batch whose save fails puts the world back and runs each call again alone")
    func failedSavePutsTheWorldBack() throws {
        let berlin = try LocalZone.named("Europe/Berlin")
        let f = try ServiceFixture(now: try berlin.at("2026-03-02", "08:10"), zone: berlin)
        defer { f.close() }
        let water = try f.addTask("Water", "09:00")
        f.forget()
        // The batch's save fails, then the first call's own save.
        f.failNextWrites([ServiceFixture.diskFull, ServiceFixture.diskFull])
        let replies = try f.queued([("MarkDone", [.string(water)]), ("AddTask", [.string("Walk"), .string("10:00")])])
        #expect(f.logLines.contains { $0.hasPrefix("could not save a batch of changes") })
        // Run again from the world as before the batch (else MarkDone would be AlreadyDone), each
        // call saves, or fails, as it would alone.
        #expect(errorName(replies[0]) == "StorageFailure")
        #expect(throws: Never.self) { try replies[1].get() }
        #expect(f.writes == ["save", "save", "save"])
        #expect(f.clockReads == 4, "the calls run again read the clock again")
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
        let replies = try f.queued([
            ("GetWidgetEntry", []), ("ListTasks", [.string("")]), ("MarkDone", [.string("nope")]),
        ])
        #expect(throws: Never.self) { try replies[0].get() }
        #expect(throws: Never.self) { try replies[1].get() }
        #expect(errorName(replies[2]) == "NotFound")
        #expect(f.writes == [])
    }

    @Test("a refresh due a commit ends the open batch first: its changes, then the catch-up")
    func catchUpEndsTheBatchFirst() throws {
        let berlin = try LocalZone.named("Europe/Berlin")
        let f = try ServiceFixture(now: try berlin.at("2026-03-02", "08:10"), zone: berlin)
        defer { f.close() }
        let mutations = f.service.world.mutations
        // The second call's refresh finds the tick's snapshot due: the batch is saved and answered,
        // then the snapshot saved, and that call is handled on its own (saved at once).
        f.environment.nextReads = [try berlin.at("2026-03-02", "08:10"), try berlin.at("2026-03-02", "09:00:01")]
        f.now = try berlin.at("2026-03-02", "09:00:01")
        _ = try f.queued([
            ("AddTask", [.string("Water"), .string("09:30")]), ("AddTask", [.string("Walk"), .string("10:00")]),
        ])
        #expect(f.writes == ["save", "save", "save"])
        #expect(
            f.busEvents == [
                "reply AddTask", "TasksChanged", "PropertiesChanged",
                "PropertiesChanged", "EntryChanged",
                "reply AddTask", "TasksChanged", "PropertiesChanged",
            ])
        #expect(f.service.world.mutations == mutations + 2)
        #expect(try f.service.world.snapshot?.tick == berlin.at("2026-03-02", "09:00"))
        let before = f.service.world
        try f.restart()
        #expect(f.service.world == before)
    }

    /// The contract's error name without its prefix.
    private func errorName(_ result: Result<[DBusValue], DBusError>) -> String {
        guard case .failure(let error) = result else { return "success" }
        return String(error.name.split(separator: ".").last ?? "")
    }
}
