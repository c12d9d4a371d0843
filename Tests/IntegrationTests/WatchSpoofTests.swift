import DBusKit
import Foundation
import TestSupport
import Testing

/// `petctl watch` believes a signal only from its sender (petprogress(7) §6): the bus's
/// `NameOwnerChanged` only from the bus, the daemon's signals only from the daemon name's
/// current owner. Another connection's unicast signals (which reach watch whatever its match
/// rules say) change nothing, and a 20 MB one is dropped before its body is read.
@Suite("petctl watch and spoofed signals")
struct WatchSpoofTests {
    static let name = "io.petprogress.PetProgress1"
    static let path = "/io/petprogress/PetProgress1"

    /// The unique name of the connection that process `pid` holds on the bus.
    static func uniqueName(of pid: pid_t, _ client: RawClient) throws -> String? {
        let bus = (
            destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus", interface: "org.freedesktop.DBus"
        )
        let names = try client.connection.call(
            destination: bus.destination, path: bus.path, interface: bus.interface, member: "ListNames")
        guard case .array(_, let values)? = names.first else { return nil }
        for case .string(let name) in values where name.hasPrefix(":") {
            let owner = try? client.connection.call(
                destination: bus.destination, path: bus.path, interface: bus.interface,
                member: "GetConnectionUnixProcessID", arguments: [.string(name)])
            if owner?.first == .uint32(UInt32(pid)) { return name }
        }
        return nil
    }

    @Test("spoofed unicast NameOwnerChanged and EntryChanged, small and 20 MB, change nothing")
    func spoofed() async throws {
        let world = try await World("watch-spoof")
        defer { world.close() }
        let daemon = try await world.daemon(now: "2026-03-02T10:50:00+01:00")
        let client = try world.client()
        let reader = try WatchReader(world: world, arguments: ["--format", "json"])
        #expect(await reader.waitForRecords(1))
        let watchPID = try #require(reader.watchPID)
        var watch: String?
        _ = await poll(timeout: .seconds(10)) {
            watch = try? Self.uniqueName(of: watchPID, client)
            return watch != nil
        }
        let destination = try #require(watch)
        let daemonName = try #require(try Self.uniqueName(of: daemon.process.pid, client))
        let residentBefore = try #require(ProcessMemory.resident(watchPID))

        // The daemon "gone", and the daemon's signals, unicast from a connection that is neither
        // the bus nor the daemon (dbus-send: gdbus 2.74 may send before its Hello completes).
        let spoofs: [[String]] = [
            [
                "/org/freedesktop/DBus", "org.freedesktop.DBus.NameOwnerChanged", "string:\(Self.name)",
                "string:\(daemonName)", "string:",
            ],
            [Self.path, "\(Self.name).TasksChanged"],
            [Self.path, "\(Self.name).EntryChanged", "dict:string:string:text,spoofed"],
        ]
        for spoof in spoofs {
            let result = try await world.sandbox.run(
                "/usr/bin/dbus-send",
                ["--bus=\(world.bus.address)", "--type=signal", "--dest=\(destination)"] + spoof,
                environment: world.bus.environment)
            #expect(result.status == 0, "\(result)")
        }
        // 20 MB bodies, as each kind of signal watch follows.
        try await BigMessage.signal(
            world, destination: destination, path: "/org/freedesktop/DBus", interface: "org.freedesktop.DBus",
            member: "NameOwnerChanged", leading: [Self.name], size: 20_000_000)
        try await BigMessage.signal(
            world, destination: destination, path: Self.path, interface: Self.name, member: "EntryChanged",
            leading: [], size: 20_000_000)
        // A real change: its line must be the next one, and nothing in between.
        _ = try client.addTask("Email", "23:30")
        #expect(await reader.waitForRecords(2), "\(reader.records) \(reader.errors)")
        try await Task.sleep(for: .milliseconds(500))
        let records = reader.records
        #expect(records.count == 2, "one line at start, one for the real change: \(records)")
        #expect(
            records.allSatisfy { !$0.contains("running") && !$0.contains("stopped") && !$0.contains("spoofed") },
            "\(records)")
        #expect(records.last?.contains("\"tasks_total\":1") == true, "\(records)")
        let peak = try #require(ProcessMemory.peak(watchPID))
        #expect(peak - residentBefore < 64 * 1024, "watch's peak \(peak) KiB, resident \(residentBefore) KiB before")
        reader.process.send(SIGKILL)
    }
}
