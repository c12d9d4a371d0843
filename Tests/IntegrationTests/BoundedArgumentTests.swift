import DBusKit
import Foundation
import TestSupport
import Testing

/// Arguments measured before they are built (petprogress(7) §6, docs/RELIABILITY.md "Unbreakable
/// II"): a huge string argument, sent by a real client (gjs over GDBus), is refused by the real
/// daemon without a copy of it being made, with an error quoting at most 40 characters, and the
/// daemon's peak memory (VmHWM) stays near what libdbus alone needs to receive the message.
@Suite("bounded arguments")
struct BoundedArgumentTests {
    static let script = """
        const {Gio, GLib} = imports.gi;
        const [address, what, size] = ARGV;
        const flags = Gio.DBusConnectionFlags.AUTHENTICATION_CLIENT | Gio.DBusConnectionFlags.MESSAGE_BUS_CONNECTION;
        const connection = Gio.DBusConnection.new_for_address_sync(address, flags, null, null);
        const big = '9'.repeat(Number(size));
        const [iface, member, body] = what === 'time'
            ? ['io.petprogress.PetProgress1', 'AddTask', new GLib.Variant('(ss)', ['Tea', big])]
            : ['org.freedesktop.DBus.Properties', 'Get', new GLib.Variant('(ss)', ['io.petprogress.PetProgress1', big])];
        try {
            connection.call_sync('io.petprogress.PetProgress1', '/io/petprogress/PetProgress1', iface, member, body,
                null, 0, 120000, null);
            print('ok');
        } catch (error) {
            print(Gio.DBusError.get_remote_error(error));
            print(error.message.length);
        }
        """

    /// The daemon's peak resident memory, in bytes.
    static func peak(_ pid: pid_t) throws -> Int {
        let status = try String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)
        let line = try #require(status.split(separator: "\n").first { $0.hasPrefix("VmHWM:") })
        let kib = try #require(Int(line.split(separator: " ").dropFirst().first ?? ""))
        return kib * 1024
    }

    static func send(_ world: World, _ what: String, _ size: Int) async throws -> [String] {
        let result = try await world.sandbox.run(
            "/usr/bin/gjs", ["-c", script, world.bus.address, what, String(size)], environment: world.bus.environment,
            timeout: .seconds(120))
        #expect(result.status == 0, "\(result)")
        return result.output.split(separator: "\n").map(String.init)
    }

    @Test("an 8 MiB time is refused with the daemon's peak under 48 MiB; a 20 MiB property name under 64 MiB")
    func hugeStrings() async throws {
        let world = try await World("bounded-arguments")
        defer { world.close() }
        let daemon = try await world.daemon(now: "2026-03-04T10:30:00+01:00")
        let pid = daemon.process.pid
        let start = try Self.peak(pid)

        let time = try await Self.send(world, "time", 8 << 20)
        #expect(time.first == "io.petprogress.PetProgress1.Error.InvalidArgument", "\(time)")
        // The sentence quotes at most 40 characters of what it refuses.
        #expect((Int(time.dropFirst().first ?? "") ?? .max) < 300, "\(time)")
        let afterTime = try Self.peak(pid)
        #expect(afterTime < 48 << 20, "VmHWM \(afterTime >> 10) KiB after an 8 MiB time (at start \(start >> 10) KiB)")

        let name = try await Self.send(world, "property", 20 << 20)
        #expect(name.first == "org.freedesktop.DBus.Error.UnknownProperty", "\(name)")
        #expect((Int(name.dropFirst().first ?? "") ?? .max) < 300, "\(name)")
        let afterName = try Self.peak(pid)
        #expect(afterName < 64 << 20, "VmHWM \(afterName >> 10) KiB after a 20 MiB name")
        print(
            "bounded arguments: VmHWM at start \(start >> 10) KiB, after an 8 MiB time \(afterTime >> 10) KiB, after a 20 MiB property name \(afterName >> 10) KiB"
        )
        // Nothing was added, and the daemon still answers.
        let client = try world.client()
        #expect(try client.tasks().isEmpty)
    }
}
