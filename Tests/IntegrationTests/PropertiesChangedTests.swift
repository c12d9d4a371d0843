import DBusKit
import Foundation
import TestSupport
import Testing

/// `PropertiesChanged` whenever a property changes (petprogress(7) §6, the contract's EmitsChangedSignal=true):
/// applets that cache properties only see what it tells them.
@Suite("PropertiesChanged")
struct PropertiesChangedTests {
    /// The `changed` dictionaries of our interface's PropertiesChanged signals.
    static func changes(_ recorder: SignalRecorder) -> [[String: DBusValue]] {
        recorder.signals("PropertiesChanged").compactMap { signal in
            guard signal.arguments.first?.stringValue == PetDaemon.interface else { return nil }
            return signal.arguments.dropFirst().first?.vardictValue
        }
    }

    @Test("each setting change emits PropertiesChanged with the new value; a rejected one emits nothing")
    func settings() async throws {
        let world = try await World("propchg")
        defer { world.close() }
        _ = try await world.daemon(now: "2026-03-02T08:30:00+01:00")
        let recorder = try SignalRecorder(bus: world.bus)
        defer { recorder.stop() }
        let client = try world.client()
        let settings: [(String, DBusValue, DBusValue)] = [
            ("GraceMinutes", .uint32(30), .uint32(30)), ("SnoozeMinutes", .int32(20), .uint32(20)),
            ("ResetTime", .string("04:30"), .string("04:30")), ("Rollover", .bool(true), .bool(true)),
        ]
        for (name, sent, announced) in settings {
            try client.setProperty(name, sent)
            let seen = await recorder.wait { _ in Self.changes(recorder).contains { $0[name] == announced } }
            #expect(seen, "PropertiesChanged for \(name) = \(announced)")
        }
        let count = recorder.count("PropertiesChanged")
        #expect(
            client.errorName(
                "Set", [.string(PetDaemon.interface), .string("GraceMinutes"), .variant(.uint32(9999))],
                interface: "org.freedesktop.DBus.Properties") == "io.petprogress.PetProgress1.Error.InvalidArgument")
        // A marker mutation after the rejected one: once its signals are in, nothing else came.
        _ = try client.addTask("Marker", "09:00")
        #expect(await recorder.wait { $0.contains { $0.member == "TasksChanged" } })
        #expect(await recorder.wait { _ in Self.changes(recorder).contains { $0["WidgetEntry"] != nil } })
        let after = Self.changes(recorder).dropFirst(count)
        #expect(
            after.allSatisfy { $0.keys.sorted() == ["WidgetEntry"] },
            "nothing for the rejected setting: \(after.map(\.keys))")
        #expect(recorder.count("TasksChanged") == 1, "settings are not task changes")
        #expect(recorder.count("EntryChanged") == 0)
    }

    @Test("a task change emits TasksChanged and PropertiesChanged carrying the new WidgetEntry")
    func widgetEntry() async throws {
        let world = try await World("propwidget")
        defer { world.close() }
        _ = try await world.daemon(now: "2026-03-02T08:30:00+01:00")
        let recorder = try SignalRecorder(bus: world.bus)
        defer { recorder.stop() }
        let client = try world.client()
        let id = try client.addTask("Water", "09:00")
        #expect(
            await recorder.wait { _ in
                Self.changes(recorder).contains { $0["WidgetEntry"]?.vardictValue?.string("next_task_id") == id }
            })
        _ = try client.markDone(id)
        #expect(
            await recorder.wait { _ in
                Self.changes(recorder).contains { $0["WidgetEntry"]?.vardictValue?.int("tasks_done") == 1 }
            })
        let last = try #require(Self.changes(recorder).last?["WidgetEntry"]?.vardictValue)
        #expect(try last == client.entry(), "the signal carries what GetWidgetEntry returns")
        #expect(recorder.count("TasksChanged") == 2)
        #expect(recorder.signals("TasksChanged").allSatisfy { $0.arguments.isEmpty })
    }
}
