import DBusKit
import Foundation
import TestSupport
import Testing

extension DBusKitSuites {
    /// Every method call is answered exactly once, as seen by a `dbus-monitor` on the bus.
    @Suite("Exactly one reply")
    struct ReplyCountTests {
        @Test func everyCallGetsExactlyOneReply() throws {
            let fixture = try BusFixture()
            let monitor = try fixture.sandbox.spawn(
                "/usr/bin/dbus-monitor", ["--address", fixture.bus.address], environment: fixture.bus.environment,
                label: "dbus-monitor")
            // The monitor prints NameAcquired/NameLost once it has become a monitor.
            #expect(monitor.waitForLine() != nil)

            let calls: [(path: String, interface: String, member: String, arguments: [DBusValue])] = [
                (TestServiceProcess.path, TestServiceProcess.interface, "Add", [.int32(1), .int32(2)]),
                (TestServiceProcess.path, TestServiceProcess.interface, "Add", [.string("wrong")]),
                (TestServiceProcess.path, TestServiceProcess.interface, "Missing", []),
                (TestServiceProcess.path, "org.example.NoSuchInterface", "Add", [.int32(1), .int32(2)]),
                ("/org/example/Nothing", TestServiceProcess.interface, "Add", [.int32(1), .int32(2)]),
                ("/", TestServiceProcess.interface, "Add", [.int32(1), .int32(2)]),
                (
                    TestServiceProcess.path, TestServiceProcess.interface, "Fail",
                    [.string("org.example.E"), .string("no")]
                ),
                (
                    TestServiceProcess.path, "org.freedesktop.DBus.Properties", "Get",
                    [.string(TestServiceProcess.interface), .string("Nope")]
                ),
                (
                    TestServiceProcess.path, "org.freedesktop.DBus.Properties", "Set",
                    [.string(TestServiceProcess.interface), .string("Label"), .variant(.string("x"))]
                ),
                (TestServiceProcess.path, "org.freedesktop.DBus.Properties", "GetAll", [.int32(1)]),
                (TestServiceProcess.path, "org.freedesktop.DBus.Introspectable", "Introspect", []),
                ("/org", "org.freedesktop.DBus.Introspectable", "Introspect", []),
                (TestServiceProcess.path, "org.freedesktop.DBus.Peer", "Ping", []),
            ]
            var serials: [UInt32] = []
            for call in calls {
                let message = try Message.methodCall(
                    destination: TestServiceProcess.name, path: call.path, interface: call.interface,
                    member: call.member)
                try message.append(call.arguments)
                _ = try? fixture.client.call(message, timeout: .seconds(20))
                serials.append(message.serial)
            }
            // A final call whose reply marks the end of the monitor's record.
            let last = try Message.methodCall(
                destination: TestServiceProcess.name, path: TestServiceProcess.path,
                interface: TestServiceProcess.interface, member: "EchoString")
            try last.append([.string("end")])
            _ = try fixture.client.call(last)

            var replies: [UInt32: Int] = [:]
            let destination = "destination=\(fixture.client.uniqueName) "
            while let line = monitor.waitForLine() {
                guard line.hasPrefix("method return") || line.hasPrefix("error"), line.contains(destination),
                    let range = line.range(of: "reply_serial=")
                else { continue }
                let serial = UInt32(line[range.upperBound...].prefix { $0.isNumber }) ?? 0
                replies[serial, default: 0] += 1
                if serial == last.serial { break }
            }
            monitor.killNow()
            for (call, serial) in zip(calls, serials) {
                #expect(
                    replies[serial] == 1,
                    "\(call.path) \(call.interface).\(call.member) got \(replies[serial] ?? 0) replies")
            }
        }
    }
}
