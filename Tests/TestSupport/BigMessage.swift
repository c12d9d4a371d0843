import Foundation

/// Sends one message with a huge `ay` from a separate connection (gjs over Gio, which builds the
/// array from bytes; a ``DBusValue`` tree of 60 million bytes would not fit the test): a
/// `Properties.Set` whose variant holds the array, or a signal (unicast to `destination`) whose
/// body is the array after `leading` strings.
public enum BigMessage {
    static let script = """
        const {Gio, GLib} = imports.gi;
        const [address, kind, destination, path, iface, member, size, ...leading] = ARGV;
        const flags = Gio.DBusConnectionFlags.AUTHENTICATION_CLIENT | Gio.DBusConnectionFlags.MESSAGE_BUS_CONNECTION;
        const connection = Gio.DBusConnection.new_for_address_sync(address, flags, null, null);
        const bytes = GLib.Variant.new_from_bytes(new GLib.VariantType('ay'), new GLib.Bytes(new Uint8Array(Number(size))), true);
        const strings = leading.map(text => GLib.Variant.new_string(text));
        if (kind === 'set') {
            const body = GLib.Variant.new_tuple([...strings, GLib.Variant.new_variant(bytes)]);
            try {
                connection.call_sync(destination, path, 'org.freedesktop.DBus.Properties', 'Set', body, null, 0, 120000, null);
                print('ok');
            } catch (error) {
                print(Gio.DBusError.get_remote_error(error) || String(error));
            }
        } else {
            connection.emit_signal(destination, path, iface, member, GLib.Variant.new_tuple([...strings, bytes]));
            connection.flush_sync(null);
            print('sent');
        }
        """

    /// `Properties.Set(interface, property, <ay of size bytes>)` on `destination`; returns `ok` or
    /// the D-Bus error name.
    public static func set(
        _ world: World, destination: String, path: String, interface: String, property: String, size: Int
    ) async throws -> String {
        try await run(world, ["set", destination, path, "-", "-", String(size), interface, property])
    }

    /// A signal `interface.member` from `path` to `destination`, its body `leading` strings then
    /// an `ay` of `size` bytes.
    public static func signal(
        _ world: World, destination: String, path: String, interface: String, member: String, leading: [String],
        size: Int
    ) async throws {
        _ = try await run(world, ["signal", destination, path, interface, member, String(size)] + leading)
    }

    private static func run(_ world: World, _ arguments: [String]) async throws -> String {
        let result = try await world.sandbox.run(
            "/usr/bin/gjs", ["-c", script, world.bus.address] + arguments, environment: world.bus.environment,
            timeout: .seconds(180))
        guard result.status == 0 else { throw HarnessError("gjs \(result.status): \(result.output)") }
        return result.output.trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
