import Foundation
import TestSupport
import Testing

/// A huge `Properties.Set` costs nothing (petprogress(7) §6): the interface, the property and the
/// value's type are checked before the value is read, so a 10 MB or 60 MB `ay` (the bus refuses
/// arrays over 64 MiB; a bus with the session bus's limits carries them) is refused without ever
/// being decoded, and the daemon goes on answering with its settings unchanged.
@Suite("A huge Properties.Set")
struct BigPropertySetTests {
    static let name = "io.petprogress.PetProgress1"
    static let path = "/io/petprogress/PetProgress1"

    @Test("an ay of 10 MB and of 60 MB, to each kind of property, refused without being decoded", arguments: [10, 60])
    func huge(megabytes: Int) async throws {
        let world = try await World("big-set-\(megabytes)", sessionLimits: true)
        defer { world.close() }
        let daemon = try await world.daemon(now: "2026-03-02T08:00:00+01:00")
        let client = try world.client()
        _ = try client.addTask("Walk", "09:00")
        let settingsBefore = try client.call(
            "GetAll", [.string(Self.name)], interface: "org.freedesktop.DBus.Properties")
        let pid = daemon.process.pid
        let residentBefore = try #require(ProcessMemory.resident(pid))
        let size = megabytes * 1_000_000
        let cases = [
            (Self.name, "NoSuchProperty", "org.freedesktop.DBus.Error.UnknownProperty"),
            ("org.example.Nothing1", "GraceMinutes", "org.freedesktop.DBus.Error.UnknownInterface"),
            (Self.name, "WidgetEntry", "org.freedesktop.DBus.Error.PropertyReadOnly"),
            (Self.name, "GraceMinutes", "org.freedesktop.DBus.Error.InvalidArgs"),
            (Self.name, "ResetTime", "org.freedesktop.DBus.Error.InvalidArgs"),
            (Self.name, "Rollover", "org.freedesktop.DBus.Error.InvalidArgs"),
        ]
        for (interface, property, expected) in cases {
            let answer = try await BigMessage.set(
                world, destination: Self.name, path: Self.path, interface: interface, property: property, size: size)
            #expect(answer == expected, "\(interface).\(property)")
        }
        // The message itself must be read whole (libdbus), once at a time: at most its size twice.
        let peak = try #require(ProcessMemory.peak(pid))
        #expect(
            peak - residentBefore < 2 * size / 1024 + 16 * 1024,
            "peak \(peak) KiB, \(residentBefore) KiB before \(megabytes) MB values")
        #expect(try client.entry()["tasks_total"] != nil)
        let settingsAfter = try client.call(
            "GetAll", [.string(Self.name)], interface: "org.freedesktop.DBus.Properties")
        #expect(settingsAfter == settingsBefore)
        #expect(daemon.process.isRunning)
    }
}
