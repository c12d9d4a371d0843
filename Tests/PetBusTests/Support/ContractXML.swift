import Foundation
import FoundationXML
import PetBus

/// Reads one interface of an introspection document into an ``InterfaceDescription``, so that the
/// typed table can be compared with the XML member by member.
enum ContractXML {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// The interface called `name` in `xml`, plus any annotation the table has no place for
    /// (on the interface, a method or a signal).
    static func interface(_ name: String, in xml: String) throws -> (InterfaceDescription, extraAnnotations: [String]) {
        let builder = Builder(name)
        let parser = XMLParser(data: Data(xml.utf8))
        parser.delegate = builder
        parser.shouldResolveExternalEntities = false
        guard parser.parse() else {
            throw Failure(description: "the XML does not parse: \(parser.parserError.map { "\($0)" } ?? "?")")
        }
        guard builder.found else { throw Failure(description: "the XML has no interface \(name)") }
        return (builder.interface, builder.extraAnnotations)
    }

    /// Every way `table` and `xml` differ, one sentence each; empty when they agree.
    static func differences(table: InterfaceDescription, xml: InterfaceDescription) -> [String] {
        var problems: [String] = []
        if table.name != xml.name { problems.append("The table is \(table.name), the XML \(xml.name).") }
        problems += compare("method", table.methods, xml.methods)
        problems += compare("signal", table.signals, xml.signals)
        let tableProperties = Dictionary(table.properties.map { ($0.name, $0) }, uniquingKeysWith: { a, _ in a })
        let xmlProperties = Dictionary(xml.properties.map { ($0.name, $0) }, uniquingKeysWith: { a, _ in a })
        problems += presence("property", table.properties.map(\.name), xml.properties.map(\.name))
        for (name, ours) in tableProperties.sorted(by: { $0.key < $1.key }) {
            guard let theirs = xmlProperties[name] else { continue }
            if ours.type != theirs.type {
                problems.append("\(name): the table types it \(ours.type), the XML \(theirs.type).")
            }
            if ours.access != theirs.access {
                problems.append("\(name): the table has access \(ours.access), the XML \(theirs.access).")
            }
            if ours.annotations != theirs.annotations {
                problems.append("\(name): the table annotates it \(ours.annotations), the XML \(theirs.annotations).")
            }
        }
        return problems
    }

    private static func compare(
        _ kind: String, _ table: [InterfaceDescription.Method], _ xml: [InterfaceDescription.Method]
    ) -> [String] {
        var problems = presence(kind, table.map(\.name), xml.map(\.name))
        let xmlByName = Dictionary(xml.map { ($0.name, $0) }, uniquingKeysWith: { a, _ in a })
        for ours in table {
            guard let theirs = xmlByName[ours.name], ours.args != theirs.args else { continue }
            problems.append("\(ours.name): the table has \(list(ours.args)), the XML \(list(theirs.args)).")
        }
        if problems.isEmpty, table.map(\.name) != xml.map(\.name) {
            problems.append(
                "The \(kind)s are in another order: the table \(table.map(\.name)), the XML \(xml.map(\.name)).")
        }
        return problems
    }

    private static func presence(_ kind: String, _ table: [String], _ xml: [String]) -> [String] {
        var problems: [String] = []
        for name in table where !xml.contains(name) {
            problems.append("The \(kind) \(name) is in the table, not in the XML.")
        }
        for name in xml where !table.contains(name) {
            problems.append("The \(kind) \(name) is in the XML, not in the table.")
        }
        for name in Set(table) where table.filter({ $0 == name }).count > 1 {
            problems.append("The \(kind) \(name) is in the table twice.")
        }
        return problems
    }

    private static func list(_ args: [InterfaceDescription.Arg]) -> String {
        "(" + args.map(\.description).joined(separator: ", ") + ")"
    }

    private final class Builder: NSObject, XMLParserDelegate {
        let name: String
        var interface: InterfaceDescription
        var found = false
        var extraAnnotations: [String] = []
        private var inside = false
        private enum Current {
            case method, signal, property, none
        }
        private var current = Current.none

        init(_ name: String) {
            self.name = name
            interface = InterfaceDescription(name: name, methods: [], signals: [], properties: [])
        }

        func parser(
            _ parser: XMLParser, didStartElement element: String, namespaceURI: String?, qualifiedName: String?,
            attributes: [String: String] = [:]
        ) {
            let value = attributes["name"] ?? ""
            if element == "interface" {
                inside = value == name
                found = found || inside
                return
            }
            guard inside else { return }
            switch element {
            case "method":
                interface.methods.append(.init(name: value, args: []))
                current = .method
            case "signal":
                interface.signals.append(.init(name: value, args: []))
                current = .signal
            case "property":
                interface.properties.append(
                    .init(
                        name: value, type: attributes["type"] ?? "", access: attributes["access"] ?? "",
                        annotations: [:]))
                current = .property
            case "arg":
                let type = attributes["type"] ?? ""
                switch current {
                case .method:
                    // A method arg's direction defaults to "in" (D-Bus specification).
                    interface.methods[interface.methods.count - 1].args.append(
                        .init(name: value, type: type, direction: attributes["direction"] ?? "in"))
                case .signal:
                    interface.signals[interface.signals.count - 1].args.append(
                        .init(name: value, type: type, direction: attributes["direction"] ?? "out"))
                default: extraAnnotations.append("an arg outside a method or signal")
                }
            case "annotation":
                if current == .property {
                    interface.properties[interface.properties.count - 1].annotations[value] = attributes["value"] ?? ""
                } else {
                    extraAnnotations.append(value)
                }
            default: break
            }
        }

        func parser(_ parser: XMLParser, didEndElement element: String, namespaceURI: String?, qualifiedName: String?) {
            switch element {
            case "interface": inside = false
            case "method", "signal", "property": current = .none
            default: break
            }
        }
    }
}
