import Foundation
import PetCore
import Testing

@testable import PetService

/// A catch-up in bounded steps (petprogress(7) §3.1): 70 days off with a daily repeating task are
/// closed in three durable steps of at most 31 days, after the state before them is kept; a failure
/// of the second step leaves the first durable, and the next refresh (or a restart) resumes where
/// it stopped without keeping a second "before" snapshot.
@Suite struct CatchUpStepTests {
    @Test("70 days in steps of 31: each durable, a failed step resumed, one snapshot before")
    func steps() throws {
        let berlin = try LocalZone.named("Europe/Berlin")
        let f = try ServiceFixture(now: try berlin.at("2026-03-02", "08:10"), zone: berlin)
        defer { f.close() }
        _ = try f.succeed("AddTaskFor", [.string("Stretch"), .string("09:00"), .string(""), .string("daily")])
        f.forget()

        f.now = try berlin.at("2026-05-11", "10:00")  // 70 days later
        f.service.refresh()
        #expect(
            f.writes == ["before catch-up", "closeDays(31 records)", "closeDays(31 records)", "closeDays(8 records)"])
        #expect(f.service.world.lastClosedDay?.description == "2026-05-10")
        #expect(FileManager.default.fileExists(atPath: "\(f.directory)/state-before-2026-03-02.json"))
        #expect(f.signals.filter { $0 == "TasksChanged" }.count == 70)
    }

    @Test("a step that fails leaves the earlier ones durable; a restart resumes without a second snapshot")
    func resumed() throws {
        let berlin = try LocalZone.named("Europe/Berlin")
        let f = try ServiceFixture(now: try berlin.at("2026-03-02", "08:10"), zone: berlin)
        defer { f.close() }
        _ = try f.succeed("AddTaskFor", [.string("Stretch"), .string("09:00"), .string(""), .string("daily")])
        f.forget()

        f.now = try berlin.at("2026-05-11", "10:00")
        f.environment.failAfter(2, ServiceFixture.diskFull)
        f.service.refresh()
        #expect(f.writes == ["before catch-up", "closeDays(31 records)", "closeDays(31 records)"])
        #expect(f.service.world.lastClosedDay?.description == "2026-04-01", "the first step is kept")

        // The restart's own refresh resumes (its writes are not counted by the fixture).
        try f.restart()
        #expect(f.service.world.lastClosedDay?.description == "2026-05-10")
        let names = try FileManager.default.contentsOfDirectory(atPath: f.directory)
        #expect(names.filter { $0.hasPrefix("state-before-") } == ["state-before-2026-03-02.json"])
    }
}
