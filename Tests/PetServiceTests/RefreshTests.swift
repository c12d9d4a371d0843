import DBusKit
import PetBus
import PetCore
import Testing

@testable import PetService

/// Before each call the service reads the clock once and brings days and the snapshot up to date
/// (petprogress(7) §3.2: "no call ever sees a stale day"); the refresh's signals go out before the reply.
@Suite("The refresh before each call")
struct RefreshTests {
    /// Calls of every kind: reads, property reads, introspection and a change.
    static let calls: [(String, [DBusValue], String)] = [
        ("GetWidgetEntry", [], PetBus.interface),
        ("GetTimeline", [], PetBus.interface),
        ("ListTasks", [.string("")], PetBus.interface),
        ("GetStatus", [], PetBus.interface),
        ("Get", [.string(PetBus.interface), .string("WidgetEntry")], PropertiesInterface.name),
        ("GetAll", [.string(PetBus.interface)], PropertiesInterface.name),
        ("Introspect", [], IntrospectableInterface.name),
        ("AddTask", [.string("Stretch"), .string("23:00")], PetBus.interface),
        ("MarkDone", [.string("no-such-task")], PetBus.interface),
    ]

    @Test("every call takes a crossed tick first, reading the clock once", arguments: calls)
    func tickBeforeCall(member: String, arguments: [DBusValue], interface: String) throws {
        let berlin = try LocalZone.named("Europe/Berlin")
        let f = try ServiceFixture(now: try berlin.at("2026-03-02", "08:10"), zone: berlin)
        defer { f.close() }
        f.now = try berlin.at("2026-03-02", "09:00:01")
        _ = try f.call(member, arguments, interface: interface)
        #expect(f.clockReads == 1)
        #expect(f.lastCall.refresh == ["PropertiesChanged(WidgetEntry)", "EntryChanged"])
        #expect(try f.service.world.snapshot?.tick == berlin.at("2026-03-02", "09:00"))
        #expect(try f.wakes.last == berlin.at("2026-03-02", "10:00"))
    }

    @Test("a day that ended is closed before the call sees it")
    func closeoutBeforeCall() throws {
        let berlin = try LocalZone.named("Europe/Berlin")
        let f = try ServiceFixture(now: try berlin.at("2026-03-02", "23:10"), zone: berlin)
        defer { f.close() }
        _ = try f.addTask("Floss", "23:30")
        f.forget()
        f.now = try berlin.at("2026-03-03", "00:20")
        let tasks = try f.succeed("ListTasks", [.string("")])
        #expect(tasks.first?.arrayValues == [], "the new day's tasks, not the closed day's")
        #expect(f.lastCall.refresh == ["TasksChanged", "PropertiesChanged(WidgetEntry)", "EntryChanged"])
        #expect(f.lastCall.call == [])
        let status = try #require(try f.succeed("GetStatus").first?.vardictValue)
        #expect(status["open_day"] == .string("2026-03-03"))
        #expect(status["last_closed_day"] == .string("2026-03-02"))
    }

    @Test("a tick crossed while a call is handled is taken once, by the timer, after the reply")
    func tickDuringCallTakenByTimer() throws {
        let berlin = try LocalZone.named("Europe/Berlin")
        let f = try ServiceFixture(now: try berlin.at("2026-03-02", "08:10"), zone: berlin)
        defer { f.close() }
        let water = try f.addTask("Water", "09:00")
        let xpBefore = f.service.world.snapshot?.pet.stageXP
        f.forget()

        let refreshedAt = try berlin.at("2026-03-02", "08:59:59")
        f.now = refreshedAt
        let tick = refreshedAt + 1
        _ = try f.call("MarkDone", [.string(water)], afterRefresh: { f.now = tick })
        // The call works at the refresh's instant: the completion is dated before the tick, and
        // the tick is not taken in the middle of the call.
        #expect(f.service.world.tasks.first?.completedAt == refreshedAt)
        #expect(f.lastCall.refresh == [] && f.lastCall.call == ["TasksChanged", "PropertiesChanged(WidgetEntry)"])
        #expect(try f.service.world.snapshot?.tick == berlin.at("2026-03-02", "08:00"))
        #expect(f.wakes.last == tick, "the service asked to be woken at the tick it has not taken")

        f.forget()
        f.service.refresh()  // the timer fires at the tick
        #expect(f.signals == ["PropertiesChanged(WidgetEntry)", "EntryChanged"])
        #expect(f.entriesSignalled.map(\.date) == [tick])
        #expect(f.service.world.snapshot?.pet.stageXP != xpBefore, "the 09:00 snapshot has the completion")

        f.forget()
        _ = try f.succeed("GetWidgetEntry")
        f.service.refresh()
        #expect(f.signals == [], "EntryChanged once per tick")
    }

    @Test("a tick crossed while a call is handled is taken once, by the next call, before its reply")
    func tickDuringCallTakenByNextCall() throws {
        let berlin = try LocalZone.named("Europe/Berlin")
        let f = try ServiceFixture(now: try berlin.at("2026-03-02", "08:59:59"), zone: berlin)
        defer { f.close() }
        let tick = try berlin.at("2026-03-02", "09:00")
        _ = try f.call("AddTask", [.string("Water"), .string("09:30")], afterRefresh: { f.now = tick })
        #expect(f.lastCall.call == ["TasksChanged", "PropertiesChanged(WidgetEntry)"])
        #expect(f.entriesSignalled == [])

        _ = try f.succeed("GetPet")
        #expect(f.lastCall.refresh == ["PropertiesChanged(WidgetEntry)", "EntryChanged"])
        #expect(f.entriesSignalled.map(\.date) == [tick])
        f.forget()
        f.service.refresh()  // the timer, armed for 09:00, fires after the call took the tick
        #expect(f.signals == [] && f.writes == [])
    }
}
