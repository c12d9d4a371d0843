import DBusKit
import Foundation
import TestSupport
import Testing

/// D-Bus activation on a plain dbus-daemon (petprogress(7) §8): the first call starts the daemon through the
/// `.service` file in the bus's service directory; the test starts no daemon itself.
@Suite("Activation")
struct ActivationTests {
    /// Waits until `pid` is gone (it is the bus's child, not ours: poll with signal 0).
    static func waitGone(_ pid: pid_t, timeout: Duration = .seconds(10)) async -> Bool {
        await poll(timeout: timeout) { kill(pid, 0) != 0 && errno == ESRCH }
    }

    static func activatedPID(_ client: RawClient) throws -> pid_t {
        let pid = try client.daemonPID()
        let exe = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(pid)/exe")
        #expect(
            try URL(fileURLWithPath: exe).resolvingSymlinksInPath().path
                == URL(fileURLWithPath: PetDaemon.binary()).resolvingSymlinksInPath().path)
        return pid
    }

    @Test("a generated .service file (Exec= the binary under test, --data-dir) starts the daemon on the first call")
    func generatedServiceFile() async throws {
        let world = try await World.activating("activate", now: "2026-03-02T08:30:00+01:00")
        defer { world.close() }
        let (sandbox, bus) = (world.sandbox, world.bus)
        let data = sandbox.path("data")
        let client = try RawClient(bus: bus)
        #expect(
            try client.connection.call(
                destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus", interface: "org.freedesktop.DBus",
                member: "NameHasOwner", arguments: [.string(PetDaemon.name)]
            ).first == .bool(false), "nothing runs before the call")

        // The very first call, from dbus-send, is what starts it.
        var result = try await world.dbusSend("AddTask", ["string:Activated", "string:09:00"])
        #expect(result.status == 0, "\(result)\nbus: \(bus.process.errors)")
        #expect(result.output.contains("string \"20260302-1\""))
        let pid = try Self.activatedPID(client)
        defer { if kill(pid, 0) == 0 { kill(pid, SIGKILL) } }
        #expect(try client.status().string("data_dir") == data)
        #expect(FileManager.default.fileExists(atPath: data + "/state.json"))

        // Stopped, the next call activates it again, on the same data.
        kill(pid, SIGTERM)
        #expect(await Self.waitGone(pid))
        result = try await world.dbusSend("ListTasks", ["string:"])
        #expect(result.status == 0, "\(result)")
        #expect(result.output.contains("string \"Activated\""))
        let second = try Self.activatedPID(client)
        defer { if kill(second, 0) == 0 { kill(second, SIGKILL) } }
        #expect(second != pid)
        kill(second, SIGTERM)
        #expect(await Self.waitGone(second))
    }

    @Test("the shipped dbus/….service.in, with @bindir@ filled in, activates the daemon (data in XDG_DATA_HOME)")
    func shippedTemplate() async throws {
        let sandbox = try Sandbox("template")
        defer { sandbox.close() }
        let template = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
            .appendingPathComponent("dbus/io.petprogress.PetProgress1.service.in")
        let text = try String(contentsOf: template, encoding: .utf8)
        #expect(text.contains("Exec=@bindir@/petprogressd"))
        let bindir = URL(fileURLWithPath: try PetDaemon.binary()).deletingLastPathComponent().path
        let xdg = sandbox.path("xdg-data")
        let bus = try await PrivateBus(
            in: sandbox,
            services: ["\(PetDaemon.name).service": text.replacingOccurrences(of: "@bindir@", with: bindir)],
            activationEnvironment: ["TZ": "Europe/Berlin", "HOME": sandbox.path("home"), "XDG_DATA_HOME": xdg])
        let client = try RawClient(bus: bus)
        let status = try client.status()
        let pid = try Self.activatedPID(client)
        defer { if kill(pid, 0) == 0 { kill(pid, SIGKILL) } }
        #expect(status.string("data_dir") == xdg + "/petprogress")
        let mode = try FileManager.default.attributesOfItem(atPath: xdg + "/petprogress")[.posixPermissions] as? Int
        #expect(mode == 0o700)
        kill(pid, SIGTERM)
        #expect(await Self.waitGone(pid))
    }
}
