import Foundation
import Testing

@testable import petctl

/// The tray's introspection (`TrayIntrospection`, the one place its SNI and dbusmenu XML lives)
/// against the interface definitions of KDE (StatusNotifierItem) and libdbusmenu (dbusmenu), kept
/// as fixtures: every member they define is ours with the same types, or listed below as left out
/// with the reason; every member of ours beyond them is listed below as an extension with its
/// source. A drift on either side fails and names the member.
@Suite struct TrayInterfaceTests {
    /// Members of the definitions the tray leaves out, and why.
    static let leftOut: [String: String] = [
        "org.kde.StatusNotifierItem method ProvideXdgActivationToken (s) ()":
            "the item opens no window of its own to hand a token to (Today opens in a terminal the desktop starts); a host's call is answered UnknownMethod",
        "org.kde.StatusNotifierItem signal NewMenu ()":
            "the menu's object path never changes, so there is never a new menu to announce",
    ]
    /// Members of the tray's beyond the definitions, and where they come from.
    static let extensions: [String: String] = [
        "org.kde.StatusNotifierItem property XAyatanaLabel s read":
            "Ayatana's label (libayatana-appindicator): GNOME's AppIndicator extension shows it beside the icon",
        "org.kde.StatusNotifierItem property XAyatanaLabelGuide s read": "Ayatana's label: its width guide",
        "org.kde.StatusNotifierItem property XAyatanaOrderingIndex u read": "Ayatana's ordering among items",
        "org.kde.StatusNotifierItem signal XAyatanaNewLabel (ss)": "Ayatana's label changed",
        "com.canonical.dbusmenu method EventGroup (a(isvu)) (ai)":
            "dbusmenu's group calls, which newer hosts send instead of one Event per item",
        "com.canonical.dbusmenu method AboutToShowGroup (ai) (aiai)": "dbusmenu's group calls, as above",
    ]

    static func fixture(_ name: String) throws -> String {
        let path = String(#filePath.dropLast("TrayInterfaceTests.swift".count)) + "Fixtures/" + name
        return try String(contentsOfFile: path, encoding: .utf8)
    }

    @Test(arguments: [
        ("org.kde.StatusNotifierItem", TrayIntrospection.item, "org.kde.StatusNotifierItem.xml"),
        ("com.canonical.dbusmenu", TrayIntrospection.menu, "com.canonical.dbusmenu.xml"),
    ])
    func theTraysXMLMatchesTheDefinition(interface: String, ours: String, fixture: String) throws {
        let defined = IntrospectionMembers(try Self.fixture(fixture)).of(interface)
        let declared = IntrospectionMembers(ours).of(interface)
        #expect(defined.count > 5, "the fixture \(fixture) defines \(interface)")
        #expect(declared.count > 5, "the tray declares \(interface)")
        for member in defined.subtracting(declared).sorted() {
            #expect(Self.leftOut[member] != nil, "the definition has \(member), the tray's XML does not")
        }
        for member in declared.subtracting(defined).sorted() {
            #expect(Self.extensions[member] != nil, "the tray's XML has \(member), the definition does not")
        }
        // The lists stay true: nothing listed is in both, or in neither.
        for member in Self.leftOut.keys where member.hasPrefix(interface + " ") {
            #expect(defined.contains(member) && !declared.contains(member), "left out, but not as listed: \(member)")
        }
        for member in Self.extensions.keys where member.hasPrefix(interface + " ") {
            #expect(declared.contains(member) && !defined.contains(member), "an extension, but not as listed: \(member)")
        }
    }

    /// The parser sees what a drift would change: a type, a direction, a name.
    @Test func aChangedTypeIsAnotherMember() {
        let xml = """
            <node><interface name="a.b"><method name="M"><arg type="i" direction="in"/><arg type="s" direction="out"/></method>
            <property name="P" type="u" access="read"/><signal name="S"><arg type="s"/></signal></interface></node>
            """
        #expect(IntrospectionMembers(xml).of("a.b") == ["a.b method M (i) (s)", "a.b property P u read", "a.b signal S (s)"])
        #expect(!IntrospectionMembers(xml.replacingOccurrences(of: "\"u\"", with: "\"i\"")).of("a.b").contains("a.b property P u read"))
    }
}

/// The members of introspection XML, one line each: `INTERFACE method NAME (IN) (OUT)`,
/// `INTERFACE property NAME TYPE ACCESS`, `INTERFACE signal NAME (TYPES)`. Enough of XML for
/// introspection documents: comments and the doctype skipped, attributes in double quotes.
struct IntrospectionMembers {
    private(set) var members: Set<String> = []

    init(_ xml: String) {
        var text = Substring(xml)
        var interface = ""
        var member: (kind: String, name: String)?
        var inTypes = "", outTypes = ""
        func finish() {
            guard let open = member else { return }
            members.insert(
                open.kind == "method"
                    ? "\(interface) method \(open.name) (\(inTypes)) (\(outTypes))"
                    : "\(interface) signal \(open.name) (\(outTypes))")
            member = nil
        }
        while let start = text.firstIndex(of: "<") {
            text = text[start...]
            if text.hasPrefix("<!--") {
                guard let end = text.range(of: "-->") else { break }
                text = text[end.upperBound...]
                continue
            }
            guard let end = text.firstIndex(of: ">") else { break }
            let tag = text[text.index(after: start)..<end]
            text = text[text.index(after: end)...]
            let closing = tag.hasPrefix("/")
            let selfClosing = tag.hasSuffix("/")
            let name = String(tag.drop { $0 == "/" }.prefix { !$0.isWhitespace && $0 != "/" })
            let attributes = Self.attributes(tag)
            switch (name, closing) {
            case ("interface", false): interface = attributes["name"] ?? ""
            case ("method", false), ("signal", false):
                member = (name, attributes["name"] ?? "")
                (inTypes, outTypes) = ("", "")
                if selfClosing { finish() }
            case ("method", true), ("signal", true): finish()
            case ("arg", false):
                let type = attributes["type"] ?? ""
                // A signal's arguments go out whatever their direction says (it is optional there).
                if member?.kind == "method" && attributes["direction"] != "out" { inTypes += type } else { outTypes += type }
            case ("property", false):
                members.insert(
                    "\(interface) property \(attributes["name"] ?? "") \(attributes["type"] ?? "") \(attributes["access"] ?? "")")
            default: break
            }
        }
    }

    func of(_ interface: String) -> Set<String> { members.filter { $0.hasPrefix(interface + " ") } }

    private static func attributes(_ tag: Substring) -> [String: String] {
        var found: [String: String] = [:]
        var rest = tag
        while let equals = rest.range(of: "=\"") {
            let key = rest[..<equals.lowerBound].split(whereSeparator: \.isWhitespace).last.map(String.init) ?? ""
            let after = rest[equals.upperBound...]
            guard let close = after.firstIndex(of: "\"") else { break }
            found[key] = String(after[..<close])
            rest = after[after.index(after: close)...]
        }
        return found
    }
}
