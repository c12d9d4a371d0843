import Foundation
import TestSupport
import Testing

/// The tray's own interfaces under the daemon's bounds (petprogress(7) §6, docs/RELIABILITY.md
/// "Unbreakable II"): a `GetGroupProperties` holding a million ids, sent by gjs over GDBus, is
/// refused before one is read, the tray's peak (VmHWM) stays far below its unit's 64 MiB, and the
/// menu answers afterwards.
extension TrayTests {
    static let millionIDs = """
        const {Gio, GLib} = imports.gi;
        const [address, item] = ARGV;
        const flags = Gio.DBusConnectionFlags.AUTHENTICATION_CLIENT | Gio.DBusConnectionFlags.MESSAGE_BUS_CONNECTION;
        const connection = Gio.DBusConnection.new_for_address_sync(address, flags, null, null);
        const ids = new Array(1000000).fill(0);
        const names = new Array(100).fill('x'.repeat(10000));
        try {
            connection.call_sync(item, '/MenuBar', 'com.canonical.dbusmenu', 'GetGroupProperties',
                new GLib.Variant('(aias)', [ids, []]), null, 0, 60000, null);
            print('ok');
        } catch (error) {
            print(Gio.DBusError.get_remote_error(error));
        }
        try {
            connection.call_sync(item, '/MenuBar', 'com.canonical.dbusmenu', 'GetGroupProperties',
                new GLib.Variant('(aias)', [[0, 0, 0], names]), null, 0, 60000, null);
            print('ok');
        } catch (error) {
            print(Gio.DBusError.get_remote_error(error));
        }
        """

    @Test("a million ids in GetGroupProperties: refused before one is read, the tray's peak stays small")
    func millionIDs() async throws {
        let setup = try await Setup("tray-bounds", now: "2026-03-02T10:30:00+01:00", tasks: [("Tea", "15:00")])
        defer { setup.close() }
        #expect(setup.watcher.waitForLine { $0.hasPrefix("props") } != nil)
        let result = try await setup.world.sandbox.run(
            "/usr/bin/gjs", ["-c", Self.millionIDs, setup.world.bus.address, setup.item],
            environment: setup.world.bus.environment, timeout: .seconds(120))
        let lines = result.output.split(separator: "\n").map(String.init)
        #expect(lines.first == "org.freedesktop.DBus.Error.InvalidArgs", "\(result)")
        // Three ids (each once) and 100 names of 10 KB, each read as 4 KB at most: answered.
        #expect(lines.dropFirst().first == "ok", "\(result)")
        let status = try String(contentsOfFile: "/proc/\(setup.tray.pid)/status", encoding: .utf8)
        let line = try #require(status.split(separator: "\n").first { $0.hasPrefix("VmHWM:") })
        let kib = try #require(Int(line.split(separator: " ").dropFirst().first ?? ""))
        #expect(kib < 48 * 1024, "the tray's VmHWM is \(kib) KiB")
        print("tray bounds: VmHWM \(kib) KiB after a million ids")
        #expect(try setup.menuItems().count > 1)
    }
}
