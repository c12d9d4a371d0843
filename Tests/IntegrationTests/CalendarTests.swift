import DBusKit
import Foundation
import TestSupport
import Testing

/// Days over the bus (petprogress(7) §3, §3.1, §5): a reset time's shortened transition day, times past
/// midnight that belong to the previous day, and history across a year boundary.
@Suite("Days and history")
struct CalendarTests {
    static let invalid = "io.petprogress.PetProgress1.Error.InvalidArgument"

    @Test(
        "reset 04:00: 01:30 belongs to the previous day; a change back to 00:00 shortens the next day, whose 02:00 does not exist"
    )
    func transitionDay() async throws {
        let world = try await World("transition")
        defer { world.close() }
        let data = world.sandbox.path("data")
        var daemon = try await world.daemon(dataDirectory: data, now: "2026-03-02T08:30:00+01:00")
        var client = try world.client()
        try client.setProperty("ResetTime", .string("04:00"))
        #expect(await daemon.stop() == 0)

        // 03-02 closed at 03-03 00:00; 03-03 ran to 03-04 04:00; 03-04 runs to 03-05 04:00.
        daemon = try await world.daemon(dataDirectory: data, now: "2026-03-04T08:30:00+01:00")
        client = try world.client()
        #expect(try client.status().string("last_closed_day") == "2026-03-03")
        let lateNight = try client.addTask("Night owl", "01:30")
        let record = try #require(try client.tasks().first { $0.string("id") == lateNight })
        #expect(record.string("day_key") == "2026-03-04", "01:30 falls in this day's interval, on the 5th")
        #expect(record.bool("overdue") == false)
        // Tomorrow with reset 00:00 again: [03-05 04:00, 03-06 00:00), a 20-hour day.
        try client.setProperty("ResetTime", .string("00:00"))
        #expect(
            client.errorName("AddTaskFor", [.string("Gone"), .string("02:00"), .string("tomorrow"), .string("")])
                == Self.invalid)
        #expect(
            client.errorName("AddTaskFor", [.string("Gone"), .string("03:59"), .string("tomorrow"), .string("")])
                == Self.invalid)
        _ = try client.addTaskFor("First", "04:00", day: "tomorrow")
        _ = try client.addTaskFor("Last", "23:59", day: "tomorrow")
        #expect(try client.tasks("tomorrow").map { $0.string("day_key") } == ["2026-03-05", "2026-03-05"])
        #expect(await daemon.stop() == 0)

        // Two days on: 03-04 closed at 03-05 04:00 (Night owl missed); 03-05 closed at 03-06 00:00.
        daemon = try await world.daemon(dataDirectory: data, now: "2026-03-06T12:00:00+01:00")
        client = try world.client()
        #expect(try client.status().string("last_closed_day") == "2026-03-05")
        #expect(try client.tasks("2026-03-04").map { $0.string("title") } == ["Night owl"])
        #expect(try client.tasks("2026-03-05").map { $0.string("title") } == ["First", "Last"])
    }

    @Test("history across a year boundary: the closed days of both years are listed")
    func yearBoundary() async throws {
        let world = try await World("newyear")
        defer { world.close() }
        let data = world.sandbox.path("data")
        var daemon = try await world.daemon(dataDirectory: data, now: "2026-12-31T20:00:00+01:00")
        var client = try world.client()
        let done = try client.addTask("Toast", "20:00")
        #expect(try client.markDone(done) == 2)
        _ = try client.addTaskFor("Resolution", "10:00", day: "tomorrow")
        #expect(await daemon.stop() == 0)
        daemon = try await world.daemon(dataDirectory: data, now: "2027-01-03T09:00:00+01:00")
        client = try world.client()
        #expect(try client.status().string("last_closed_day") == "2027-01-02")
        let old = try client.tasks("2026-12-31")
        #expect(old.map { $0.string("id") } == [done])
        #expect(old.first?.bool("done") == true)
        #expect(try client.tasks("2027-01-01").map { $0.string("title") } == ["Resolution"])
        #expect(try client.tasks("2027-01-02").isEmpty)
        // Toast on time 2, 1/1 done +3: 5; then Resolution missed 3, and 0/1 done -3: 0.
        #expect(try client.pet().int("stage_xp") == 0)
        let files = try FileManager.default.contentsOfDirectory(atPath: data).filter {
            $0 != ".lock" && $0 != "state.json"
        }
        #expect(files.count >= 2, "a history file per year: \(files)")
        #expect(await daemon.stop() == 0)
    }
}
