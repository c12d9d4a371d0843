import DBusKit
import Foundation
import FoundationXML
import TestSupport
import Testing

/// `Introspect` describes exactly the contract file's interface (petprogress(7) §6), and the tools accept it.
@Suite("Introspection")
struct IntrospectionTests {
    static var contractPath: String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
            .appendingPathComponent("dbus/io.petprogress.PetProgress1.xml").path
    }

    @Test("Introspect ≡ dbus/io.petprogress.PetProgress1.xml: methods, args, signals, properties, annotations")
    func matchesContract() async throws {
        let world = try await World("introspect")
        defer { world.close() }
        _ = try await world.daemon(now: "2026-03-02T08:30:00+01:00")
        let client = try world.client()
        let xml = try #require(
            try client.call("Introspect", interface: "org.freedesktop.DBus.Introspectable").first?.stringValue)
        let live = try IntrospectionModel(xml: Data(xml.utf8))
        let contract = try IntrospectionModel(xml: try Data(contentsOf: URL(fileURLWithPath: Self.contractPath)))

        let ours = try #require(live.interfaces[PetDaemon.interface])
        let expected = try #require(contract.interfaces[PetDaemon.interface])
        #expect(ours.methods == expected.methods)
        #expect(ours.signals == expected.signals)
        #expect(ours.properties == expected.properties)
        #expect(ours.annotations == expected.annotations)
        #expect(ours == expected)
        // The contract lists 24 methods, 2 signals, 6 properties (WidgetEntry, the four settings, Stages).
        #expect(expected.methods.count == 24)
        #expect(expected.signals.count == 2)
        #expect(expected.properties.count == 6)
        // Beyond ours, only the standard interfaces, each with its standard members.
        #expect(
            Set(live.interfaces.keys).subtracting([PetDaemon.interface])
                == [
                    "org.freedesktop.DBus.Introspectable", "org.freedesktop.DBus.Peer",
                    "org.freedesktop.DBus.Properties",
                ])
        #expect(live.interfaces["org.freedesktop.DBus.Properties"]?.methods.keys.sorted() == ["Get", "GetAll", "Set"])
        #expect(live.interfaces["org.freedesktop.DBus.Properties"]?.signals.keys.sorted() == ["PropertiesChanged"])
        #expect(live.interfaces["org.freedesktop.DBus.Peer"]?.methods.keys.sorted() == ["GetMachineId", "Ping"])
    }

    @Test("gdbus introspect and busctl introspect accept the reply; dbus-send gets the same XML")
    func toolsAccept() async throws {
        let world = try await World("introtool")
        defer { world.close() }
        _ = try await world.daemon(now: "2026-03-02T08:30:00+01:00")
        let gdbus = try await world.sandbox.run(
            "gdbus",
            [
                "introspect", "--address", world.bus.address, "--dest", PetDaemon.name, "--object-path", PetDaemon.path,
                "--xml",
            ],
            environment: world.bus.environment)
        #expect(gdbus.status == 0, "\(gdbus)")
        // gdbus re-serialises what it parsed: the same model as the contract.
        let reparsed = try IntrospectionModel(xml: Data(gdbus.output.utf8))
        let contract = try IntrospectionModel(xml: try Data(contentsOf: URL(fileURLWithPath: Self.contractPath)))
        #expect(reparsed.interfaces[PetDaemon.interface] == contract.interfaces[PetDaemon.interface])
        let busctl = try await world.busctl(["introspect", "--xml-interface", PetDaemon.name, PetDaemon.path])
        #expect(busctl.status == 0, "\(busctl)")
        #expect(
            try IntrospectionModel(xml: Data(busctl.output.utf8)).interfaces[PetDaemon.interface]
                == contract.interfaces[PetDaemon.interface])
        let send = try await world.dbusSend("org.freedesktop.DBus.Introspectable.Introspect")
        #expect(send.status == 0)
        #expect(send.output.contains("<method name=\"AddTaskFor\">"))
    }
}

extension IntrospectionTests {
    @Test("busctl tree walks from / down to the object (parents list their child nodes)")
    func tree() async throws {
        let world = try await World("tree")
        defer { world.close() }
        _ = try await world.daemon(now: "2026-03-02T08:30:00+01:00")
        let result = try await world.busctl(["tree", "--list", PetDaemon.name])
        #expect(result.status == 0, "\(result)")
        #expect(
            result.output.split(separator: "\n").map(String.init) == ["/", "/io", "/io/petprogress", PetDaemon.path],
            "\(result)")
        let parent = try await world.sandbox.run(
            "dbus-send",
            [
                "--bus=\(world.bus.address)", "--print-reply", "--dest=\(PetDaemon.name)", "/io",
                "org.freedesktop.DBus.Introspectable.Introspect",
            ], environment: world.bus.environment)
        #expect(parent.status == 0, "\(parent)")
        #expect(parent.output.contains("<node name=\"petprogress\"/>"), "\(parent)")
    }
}

/// The parts of an introspection document the contract fixes, in comparable form.
struct IntrospectionModel {
    struct Arg: Equatable, CustomStringConvertible {
        var name: String
        var type: String
        var direction: String
        var description: String { "\(direction) \(type) \(name)" }
    }

    struct Member: Equatable {
        var args: [Arg] = []
        var annotations: [String: String] = [:]
    }

    struct Property: Equatable {
        var type: String
        var access: String
        var annotations: [String: String] = [:]
    }

    struct Interface: Equatable {
        var methods: [String: Member] = [:]
        var signals: [String: Member] = [:]
        var properties: [String: Property] = [:]
        var annotations: [String: String] = [:]
    }

    var interfaces: [String: Interface] = [:]

    init(xml: Data) throws {
        let delegate = Builder()
        let parser = XMLParser(data: xml)
        parser.delegate = delegate
        parser.shouldResolveExternalEntities = false
        guard parser.parse() else {
            throw HarnessError("introspection XML does not parse: \(parser.parserError.map { "\($0)" } ?? "?")")
        }
        if let problem = delegate.problem { throw HarnessError(problem) }
        interfaces = delegate.interfaces
    }

    private final class Builder: NSObject, XMLParserDelegate {
        var interfaces: [String: Interface] = [:]
        var problem: String?
        private var interface: (String, Interface)?
        private enum Current {
            case method(String)
            case signal(String)
            case property(String)
            case none
        }
        private var current = Current.none

        func parser(
            _ parser: XMLParser, didStartElement element: String, namespaceURI: String?, qualifiedName: String?,
            attributes: [String: String] = [:]
        ) {
            let name = attributes["name"] ?? ""
            switch element {
            case "interface": interface = (name, Interface())
            case "method":
                interface?.1.methods[name] = Member()
                current = .method(name)
            case "signal":
                interface?.1.signals[name] = Member()
                current = .signal(name)
            case "property":
                interface?.1.properties[name] = Property(
                    type: attributes["type"] ?? "", access: attributes["access"] ?? "")
                current = .property(name)
            case "arg":
                switch current {
                case .method(let m):
                    // A method arg's direction defaults to "in" (D-Bus specification).
                    interface?.1.methods[m]?.args.append(
                        Arg(name: name, type: attributes["type"] ?? "", direction: attributes["direction"] ?? "in"))
                case .signal(let s):
                    interface?.1.signals[s]?.args.append(
                        Arg(name: name, type: attributes["type"] ?? "", direction: attributes["direction"] ?? "out"))
                default: problem = "arg outside a method or signal"
                }
            case "annotation":
                let value = attributes["value"] ?? ""
                switch current {
                case .method(let m): interface?.1.methods[m]?.annotations[name] = value
                case .signal(let s): interface?.1.signals[s]?.annotations[name] = value
                case .property(let p): interface?.1.properties[p]?.annotations[name] = value
                case .none: interface?.1.annotations[name] = value
                }
            default: break
            }
        }

        func parser(_ parser: XMLParser, didEndElement element: String, namespaceURI: String?, qualifiedName: String?) {
            switch element {
            case "interface":
                if let (name, value) = interface {
                    if interfaces[name] != nil { problem = "interface \(name) listed twice" }
                    interfaces[name] = value
                }
                interface = nil
            case "method", "signal", "property": current = .none
            default: break
            }
        }
    }
}
