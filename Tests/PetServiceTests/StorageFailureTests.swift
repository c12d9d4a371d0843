import DBusKit
import PetCore
import PetStore
import Testing

@testable import PetService

/// A store write that fails (petprogress(7) §5, §6.1 `StorageFailure`): the call is refused, nothing
/// acknowledged is lost, memory keeps matching the disk, and the next call or timer wake retries.
@Suite("Storage failures")
struct StorageFailureTests {
    @Test("a save that fails is StorageFailure and changes nothing; the next call saves")
    func failedSaveThenRetry() throws {
        let berlin = try LocalZone.named("Europe/Berlin")
        let f = try ServiceFixture(now: try berlin.at("2026-03-02", "08:10"), zone: berlin)
        defer { f.close() }
        let water = try f.addTask("Water", "09:00")
        let mutations = f.service.world.mutations
        f.forget()

        f.failNextWrites([ServiceFixture.diskFull])
        #expect(try f.failure("AddTask", [.string("Walk"), .string("10:00")]) == "StorageFailure")
        #expect(f.writes == ["save"])
        #expect(f.signals == [], "a refused change announces nothing")
        #expect(f.service.world.tasks.map(\.title) == ["Water"])
        #expect(f.service.world.mutations == mutations)
        #expect(f.logLines.contains { $0.hasPrefix("could not save a change") })

        f.forget()
        f.failNextWrites([ServiceFixture.diskFull])
        #expect(try f.failure("MarkDone", [.string(water)]) == "StorageFailure")
        #expect(f.service.world.tasks.first?.isDone == false)

        f.forget()
        _ = try f.addTask("Walk", "10:00")
        #expect(try f.succeed("MarkDone", [.string(water)]).first?.int32Value != nil)
        #expect(f.writes == ["save", "save"], "each call retries on its own")
        #expect(f.service.world.mutations == mutations + 2)

        // What was acknowledged is what a restarted daemon finds.
        let before = f.service.world
        try f.restart()
        #expect(f.service.world == before)
        #expect(f.service.world.tasks.map(\.title) == ["Water", "Walk"])
    }

    @Test("a change written but not made durable is kept and announced, and still reported")
    func stateReplaced() throws {
        let berlin = try LocalZone.named("Europe/Berlin")
        let f = try ServiceFixture(now: try berlin.at("2026-03-02", "08:10"), zone: berlin)
        defer { f.close() }
        f.failNextWrites([ServiceFixture.notDurable])
        #expect(try f.failure("AddTask", [.string("Water"), .string("09:00")]) == "StorageFailure")
        // The state file was replaced: memory follows the disk, and applets hear of it.
        #expect(f.service.world.tasks.map(\.title) == ["Water"])
        #expect(f.lastCall.call == ["TasksChanged", "PropertiesChanged(WidgetEntry)"])
        let before = f.service.world
        try f.restart()
        #expect(f.service.world == before)
    }

    @Test("a closeout that cannot be saved is retried by the timer, and emits once")
    func failedCatchUpRetriedByTimer() throws {
        let berlin = try LocalZone.named("Europe/Berlin")
        let f = try ServiceFixture(now: try berlin.at("2026-03-02", "08:10"), zone: berlin)
        defer { f.close() }
        _ = try f.addTask("Water", "09:00")
        f.forget()

        f.now = try berlin.at("2026-03-03", "07:30")
        f.failNextWrites([ServiceFixture.diskFull])
        _ = try f.succeed("GetStatus")
        #expect(f.writes == ["closeDays(1 records)"])
        #expect(f.signals == [], "nothing was adopted, so nothing is announced")
        #expect(f.service.world.lastClosedDay == nil)
        #expect(f.service.world.openDay.key.description == "2026-03-02")
        #expect(f.wakes.last == f.now + PetService.retryAfterStorageFailure, "the timer retries within a minute")
        #expect(f.logLines.contains { $0.hasPrefix("could not save the catch-up") })

        f.forget()
        f.now += PetService.retryAfterStorageFailure
        f.service.refresh()  // the timer's wake
        #expect(f.writes == ["closeDays(1 records)"])
        #expect(f.signals == ["TasksChanged", "PropertiesChanged(WidgetEntry)", "EntryChanged"])
        #expect(f.service.world.lastClosedDay?.description == "2026-03-02")
        #expect(try f.entriesSignalled.map(\.date) == [berlin.at("2026-03-03", "07:00")])

        f.forget()
        f.service.refresh()
        _ = try f.succeed("GetWidgetEntry")
        #expect(f.writes == [] && f.signals == [], "the closeout and the tick are taken once")
        let history = try f.succeed("GetHistory", [.string(""), .string("")])
        #expect(history.first?.arrayValues?.count == 1)
    }

    @Test("a change waits for the catch-up: refused while it cannot be saved, made on the new day after")
    func failedCatchUpAndChange() throws {
        let berlin = try LocalZone.named("Europe/Berlin")
        let f = try ServiceFixture(now: try berlin.at("2026-03-02", "22:30"), zone: berlin)
        defer { f.close() }
        _ = try f.addTask("Water", "23:00")
        f.forget()

        // The closeout cannot be saved: the change is refused rather than made on the ended day
        // (its own save would succeed: the failure is the catch-up's alone).
        f.now = try berlin.at("2026-03-03", "08:10")
        f.failNextWrites([ServiceFixture.diskFull])
        #expect(try f.failure("AddTask", [.string("Walk"), .string("09:00")]) == "StorageFailure")
        #expect(f.writes == ["closeDays(1 records)"])
        #expect(f.signals == [])
        #expect(f.service.world.tasks.map(\.title) == ["Water"])
        #expect(f.service.world.openDay.key.description == "2026-03-02")
        // Reads still answer, from the last durable state, while the catch-up keeps failing.
        f.failNextWrites([ServiceFixture.diskFull])
        #expect(try f.succeed("ListTasks", [.string("")]).first?.arrayValues?.count == 1)
        #expect(f.writes == ["closeDays(1 records)", "closeDays(1 records)"])

        f.forget()
        _ = try f.addTask("Walk", "09:00")
        #expect(f.writes == ["closeDays(1 records)", "save"], "the next call retries the closeout first")
        #expect(f.service.world.openDay.key.description == "2026-03-03")
        #expect(f.service.world.tasks.map(\.title) == ["Walk"])
        try f.restart()
        #expect(f.service.world.tasks.map(\.title) == ["Walk"])
        let closed = try f.succeed("ListTasks", [.string("2026-03-02")])
        #expect(closed.first?.arrayValues?.count == 1, "Water, closed with its day")
    }

    @Test("a change waits for a tick's snapshot that could not be saved")
    func failedSnapshotAndChange() throws {
        let berlin = try LocalZone.named("Europe/Berlin")
        let f = try ServiceFixture(now: try berlin.at("2026-03-02", "08:10"), zone: berlin)
        defer { f.close() }
        let water = try f.addTask("Water", "09:00")
        f.forget()
        f.now = try berlin.at("2026-03-02", "09:00:30")
        f.failNextWrites([ServiceFixture.diskFull])
        #expect(try f.failure("MarkDone", [.string(water)]) == "StorageFailure")
        #expect(f.writes == ["save"])
        f.forget()
        _ = try f.succeed("MarkDone", [.string(water)])
        #expect(f.writes == ["save", "save"])
        #expect(f.lastCall.refresh == ["PropertiesChanged(WidgetEntry)", "EntryChanged"])
        // The 09:00 snapshot is the pet as of 09:00, before the completion at 09:00:30.
        #expect(f.entriesSignalled.first?.pet.stageXP == 0)
        #expect(f.service.world.tasks.first?.completedAt == f.now)
    }
}
