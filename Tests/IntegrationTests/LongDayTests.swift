import DBusKit
import Foundation
import TestSupport
import Testing

/// The long day a reset-time change shapes (petprogress(7) §3 "Task times"), on the real daemon in
/// Europe/Berlin: `ResetTime` set to 04:00 over the bus on Monday 2026-03-02, the daemon stopped,
/// and started again at 02:00 on Wednesday, in the small hours of Tuesday's day (Tuesday 00:00 to
/// Wednesday 04:00, 28 hours), with the simulated clock at 60×.
@Suite("Long day")
struct LongDayTests {
    @Test("a task added at 02:00 of the 28-hour day for 03:00 is due an hour later, not 25 hours ago")
    func smallHoursOfTheLongDay() async throws {
        let world = try await World("longday")
        defer { world.close() }
        let data = world.sandbox.path("data")
        var daemon = try await world.daemon(dataDirectory: data, now: "2026-03-02T12:00:00+01:00")
        let set = try await world.busctl([
            "set-property", PetDaemon.name, PetDaemon.path, PetDaemon.interface, "ResetTime", "s", "04:00",
        ])
        #expect(set.status == 0, "\(set)")
        #expect(await daemon.stop() == 0)

        daemon = try await world.daemon(dataDirectory: data, now: "2026-03-04T02:00:00+01:00", timeScale: 60)
        let added = try await world.dbusSend("AddTask", ["string:Call home", "string:03:00"])
        #expect(added.status == 0, "\(added)")
        let id = try #require(ClientTests.firstString(added.output, prefix: "20260303-"), "\(added.output)")
        let client = try world.client()
        var task = try #require(try client.tasks().first { $0.string("id") == id })
        #expect(task.string("day_key") == "2026-03-03")
        #expect(task.int("scheduled_at") == unix("2026-03-04T03:00:00+01:00"))
        #expect(task["overdue"]?.boolValue == false)

        let retimed = try await world.dbusSend("UpdateTask", ["string:\(id)", "string:", "string:03:30"])
        #expect(retimed.status == 0, "\(retimed)")
        task = try #require(try client.tasks().first { $0.string("id") == id })
        #expect(task.int("scheduled_at") == unix("2026-03-04T03:30:00+01:00"))
        #expect(task["overdue"]?.boolValue == false)
        #expect(await daemon.stop() == 0)
    }
}
