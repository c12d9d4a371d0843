import DBusKit
import Foundation
import TestSupport
import Testing

extension DBusKitSuites {
    /// Introspection, Peer, Properties and the standard errors of an exported object.
    @Suite("Exported objects")
    struct ObjectTests {
        @Test func introspectionIsAcceptedByGdbusAndBusctl() throws {
            let fixture = try BusFixture()
            let gdbus = try fixture.gdbus(
                "introspect", ["--dest", TestServiceProcess.name, "--object-path", TestServiceProcess.path])
            #expect(gdbus.status == 0, "\(gdbus.errors)")
            for fragment in [
                "interface org.example.DBusKitTest1", "Add(in  i a,", "signals:", "Tick(t due_ns);",
                "readwrite u Level", "interface org.freedesktop.DBus.Properties", "PropertiesChanged(",
            ] {
                #expect(gdbus.output.contains(fragment), "gdbus introspect lacks \(fragment)")
            }
            let tree = try fixture.gdbus(
                "introspect", ["--dest", TestServiceProcess.name, "--object-path", "/", "--recurse"])
            #expect(tree.status == 0)
            #expect(tree.output.contains("node /org/example/DBusKitTest"))
            let busctl = try fixture.busctl(["introspect", TestServiceProcess.name, TestServiceProcess.path])
            #expect(busctl.status == 0)
            #expect(busctl.output.contains(".Level"))
        }

        @Test func peerPingAndMachineID() throws {
            let fixture = try BusFixture()
            let ping = try fixture.client.call(
                destination: TestServiceProcess.name, path: TestServiceProcess.path,
                interface: "org.freedesktop.DBus.Peer", member: "Ping")
            #expect(ping.isEmpty)
            let gdbus = try fixture.gdbus(
                "call",
                [
                    "--dest", TestServiceProcess.name, "--object-path", TestServiceProcess.path,
                    "--method", "org.freedesktop.DBus.Peer.GetMachineId",
                ])
            #expect(gdbus.status == 0)
            #expect(gdbus.output.range(of: "[0-9a-f]{32}", options: .regularExpression) != nil)
        }

        /// libdbus itself answers Ping and GetMachineId with any arguments, and Introspect on a
        /// path without an object too; petprogress(7) §6.1 wants InvalidArgs for a wrong signature, on any path.
        @Test func peerAndIntrospectRejectArguments() throws {
            let fixture = try BusFixture()
            let calls = [
                ("org.freedesktop.DBus.Peer.Ping", "string:x"), ("org.freedesktop.DBus.Peer.GetMachineId", "int32:1"),
                ("org.freedesktop.DBus.Introspectable.Introspect", "string:x"),
            ]
            for path in [TestServiceProcess.path, "/", "/org", "/no/object/here"] {
                for (method, argument) in calls {
                    let wrong = try fixture.dbusSend(["--dest=\(TestServiceProcess.name)", path, method, argument])
                    #expect(
                        wrong.errors.hasPrefix("Error org.freedesktop.DBus.Error.InvalidArgs: "),
                        "\(path) \(method) \(argument): \(wrong.errors)")
                    let right = try fixture.dbusSend(["--dest=\(TestServiceProcess.name)", path, method])
                    #expect(right.status == 0, "\(path) \(method): \(right.errors)")
                }
            }
            let busctl = try fixture.busctl([
                "call", TestServiceProcess.name, "/", "org.freedesktop.DBus.Peer", "Ping", "s", "x",
            ])
            #expect(busctl.status != 0 && busctl.errors.contains("Ping takes no arguments"), "\(busctl.errors)")
        }

        @Test func propertiesGetSetAndErrors() throws {
            let fixture = try BusFixture()
            #expect(try fixture.busctl(["get-property"] + fixture.object + ["Label"]).output == "s \"hello\"\n")
            #expect(try fixture.busctl(["set-property"] + fixture.object + ["Label", "s", "changed"]).status == 0)
            #expect(try fixture.busctl(["get-property"] + fixture.object + ["Label"]).output == "s \"changed\"\n")

            let send = try fixture.dbusSend([
                "--dest=\(TestServiceProcess.name)", TestServiceProcess.path, "org.freedesktop.DBus.Properties.Set",
                "string:\(TestServiceProcess.interface)", "string:Level", "variant:int32:30",
            ])
            #expect(send.status == 0, "\(send.errors)")
            #expect(try fixture.busctl(["get-property"] + fixture.object + ["Level"]).output == "u 30\n")

            let all = try fixture.client.call(
                destination: TestServiceProcess.name, path: TestServiceProcess.path,
                interface: "org.freedesktop.DBus.Properties",
                member: "GetAll", arguments: [.string(TestServiceProcess.interface)])
            #expect(Set(all.first?.vardictValue?.keys.map { $0 } ?? []) == ["Counter", "Label", "Level", "Record"])

            try expectError(DBusError.Name.invalidArgs) {
                try fixture.client.setProperty(
                    destination: TestServiceProcess.name, path: TestServiceProcess.path,
                    interface: TestServiceProcess.interface, name: "Level", value: .uint32(500))
            }
            try expectError(DBusError.Name.invalidArgs) {
                try fixture.client.setProperty(
                    destination: TestServiceProcess.name, path: TestServiceProcess.path,
                    interface: TestServiceProcess.interface, name: "Level", value: .string("7"))
            }
            #expect(try fixture.busctl(["get-property"] + fixture.object + ["Level"]).output == "u 30\n")
            try expectError(DBusError.Name.propertyReadOnly) {
                try fixture.client.setProperty(
                    destination: TestServiceProcess.name, path: TestServiceProcess.path,
                    interface: TestServiceProcess.interface, name: "Counter", value: .uint32(1))
            }
            try expectError(DBusError.Name.unknownProperty) {
                _ = try fixture.client.getProperty(
                    destination: TestServiceProcess.name, path: TestServiceProcess.path,
                    interface: TestServiceProcess.interface, name: "Nope")
            }
            try expectError(DBusError.Name.unknownInterface) {
                _ = try fixture.client.getProperty(
                    destination: TestServiceProcess.name, path: TestServiceProcess.path,
                    interface: "org.example.Nope", name: "Label")
            }
            let readOnly = try fixture.busctl(["set-property"] + fixture.object + ["Counter", "u", "3"])
            #expect(readOnly.status != 0)
            #expect(readOnly.errors.contains("read-only"))
        }

        @Test func propertiesChangedIsEmitted() throws {
            let fixture = try BusFixture()
            var changes: [(String, [String: DBusValue])] = []
            _ = try fixture.client.subscribe(
                MatchRule(
                    path: TestServiceProcess.path, interface: "org.freedesktop.DBus.Properties",
                    member: "PropertiesChanged"
                )
            ) { message in
                guard let arguments = try? message.arguments(), arguments.count == 3,
                    let interface = arguments[0].stringValue,
                    let changed = arguments[1].vardictValue
                else { return }
                changes.append((interface, changed))
            }
            try fixture.client.setProperty(
                destination: TestServiceProcess.name, path: TestServiceProcess.path,
                interface: TestServiceProcess.interface, name: "Label", value: .string("new"))
            _ = try fixture.call("SetCounter", [.uint32(9)])
            #expect(fixture.loop.run(until: { changes.count >= 2 }, timeout: .seconds(10)))
            #expect(changes.first?.0 == TestServiceProcess.interface)
            #expect(changes.first?.1 == ["Label": .string("new")])
            #expect(changes.last?.1 == ["Counter": .uint32(9)])
        }

        @Test func standardErrors() throws {
            let fixture = try BusFixture()
            try expectError(DBusError.Name.unknownMethod) { _ = try fixture.call("NoSuchMethod") }
            try expectError(DBusError.Name.unknownObject) {
                _ = try fixture.client.call(
                    destination: TestServiceProcess.name, path: "/org/example/Nothing",
                    interface: TestServiceProcess.interface, member: "Add", arguments: [.int32(1), .int32(2)])
            }
            try expectError(DBusError.Name.invalidArgs) { _ = try fixture.call("Add", [.string("1"), .int32(2)]) }
            try expectError(DBusError.Name.invalidArgs) { _ = try fixture.call("Add", []) }
            try expectError("org.example.Error.Custom", message: "A sentence.") {
                _ = try fixture.call("Fail", [.string("org.example.Error.Custom"), .string("A sentence.")])
            }
            try expectError(DBusError.Name.failed) {
                _ = try fixture.call("Fail", [.string("not a name"), .string("x")])
            }
            try expectError(DBusError.Name.serviceUnknown) {
                _ = try fixture.client.call(
                    destination: "org.example.Nobody", path: "/x", interface: "org.example.X", member: "M")
            }

            let busctl = try fixture.busctl(["call"] + fixture.object + ["Add", "s", "x"])
            #expect(busctl.status != 0)
            #expect(busctl.errors.contains("expects signature 'ii'"))
            let send = try fixture.dbusSend([
                "--dest=\(TestServiceProcess.name)", "/org/example/Nothing", "org.example.X.Y",
            ])
            #expect(send.errors.contains("org.freedesktop.DBus.Error.UnknownObject"))
            let gdbus = try fixture.gdbus(
                "call",
                [
                    "--dest", TestServiceProcess.name, "--object-path", TestServiceProcess.path,
                    "--method", "\(TestServiceProcess.interface).Missing",
                ])
            #expect(gdbus.errors.contains("org.freedesktop.DBus.Error.UnknownMethod"))

            // A call that asks for no reply gets none, and the next call is still answered.
            let noReply = try runTool(
                "dbus-send",
                [
                    "--bus=\(fixture.bus.address)", "--dest=\(TestServiceProcess.name)",
                    TestServiceProcess.path, "\(TestServiceProcess.interface).EchoString", "string:x",
                ])
            #expect(noReply.status == 0)
            #expect(try fixture.call("Add", [.int32(1), .int32(1)]) == [.int32(2)])
        }
    }
}

/// Expects `body` to throw a ``DBusError`` named `name` (and with `message`, if given).
func expectError(
    _ name: String, message: String? = nil, sourceLocation: SourceLocation = #_sourceLocation,
    _ body: () throws -> Void
) throws {
    do {
        try body()
        Issue.record("expected \(name), got success", sourceLocation: sourceLocation)
    } catch let error as DBusError {
        #expect(error.name == name, sourceLocation: sourceLocation)
        if let message { #expect(error.message == message, sourceLocation: sourceLocation) }
    }
}
