import DBusKit
import Foundation
import PetBus
import PetCore
import Testing

/// The typed table (`PetBus.Methods`, `Signal`, `Property`) says exactly what the contract's XML
/// says — every method, argument name, type and direction, signal, and property with its access
/// and annotations — and the comparison catches a table that is wrong.
@Suite struct ContractTableTests {
    static var contractPath: String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("dbus/io.petprogress.PetProgress1.xml").path
    }

    static func xml() throws -> InterfaceDescription {
        let (interface, extra) = try ContractXML.interface(PetBus.interface, in: PetBus.contractXML)
        #expect(extra.isEmpty, "annotations the table has no place for: \(extra)")
        return interface
    }

    @Test("the table ≡ dbus/io.petprogress.PetProgress1.xml")
    func tableMatchesTheXML() throws {
        let problems = ContractXML.differences(table: PetBus.description, xml: try Self.xml())
        #expect(problems.isEmpty, "\(problems.joined(separator: "\n"))")
    }

    @Test("the built-in XML is dbus/'s file, and Introspect's interface element is its own, verbatim")
    func builtInXMLIsTheFile() throws {
        let file = try String(contentsOfFile: Self.contractPath, encoding: .utf8)
        #expect(PetBus.contractXML == file)
        #expect(PetBus.interfaceXML.hasPrefix("  <interface name=\"\(PetBus.interface)\">\n"))
        #expect(PetBus.interfaceXML.hasSuffix("\n  </interface>"))
        #expect(file.contains("\n" + PetBus.interfaceXML + "\n</node>"))
    }

    @Test("two arguments swapped in the table fail the comparison, naming the member and both orders")
    func swappedArgumentsAreCaught() throws {
        var table = PetBus.description
        let index = try #require(table.methods.firstIndex { $0.name == "AddTask" })
        table.methods[index].args.swapAt(0, 1)
        #expect(
            ContractXML.differences(table: table, xml: try Self.xml()) == [
                "AddTask: the table has (in s time, in s title, out s id), the XML (in s title, in s time, out s id)."
            ])
    }

    @Test("other mutations are caught too: a type, a direction, a missing member, a property's access")
    func otherMutationsAreCaught() throws {
        let xml = try Self.xml()
        var typed = PetBus.description
        typed.methods[0].args[0].type = "a{ss}"
        #expect(ContractXML.differences(table: typed, xml: xml).count == 1)
        var direction = PetBus.description
        let setRest = try #require(direction.methods.firstIndex { $0.name == "SetRest" })
        direction.methods[setRest].args[2].direction = "out"
        #expect(ContractXML.differences(table: direction, xml: xml).first?.hasPrefix("SetRest: ") == true)
        var missing = PetBus.description
        missing.methods.removeAll { $0.name == "GetStatus" }
        #expect(
            ContractXML.differences(table: missing, xml: xml) == [
                "The method GetStatus is in the XML, not in the table."
            ])
        var access = PetBus.description
        access.properties[0].access = "readwrite"
        #expect(
            ContractXML.differences(table: access, xml: xml) == [
                "WidgetEntry: the table has access readwrite, the XML read."
            ])
        var signal = PetBus.description
        signal.signals[1].args = [.init(name: "entry", type: "a{sv}", direction: "out")]
        #expect(ContractXML.differences(table: signal, xml: xml).count == 1)
    }

    @Test("each member's arguments encode to its signature and decode back")
    func argumentsRoundTrip() throws {
        let m = PetBus.Methods.self
        #expect(DBusValue.signature(of: m.getStatus.arguments.encode(())) == m.getStatus.inSignature)
        let id = m.markDone.arguments.encode("t-1")
        #expect(DBusValue.signature(of: id) == "s")
        #expect(try m.markDone.arguments.decode(id) == "t-1")
        let add = m.addTaskFor.arguments.encode(("Tea", "08:00", "tomorrow", "daily"))
        #expect(DBusValue.signature(of: add) == m.addTaskFor.inSignature)
        let decoded = try m.addTaskFor.arguments.decode(add)
        #expect(decoded == ("Tea", "08:00", "tomorrow", "daily"))
        let rest = m.setRest.arguments.encode(("today", "tomorrow", true))
        #expect(DBusValue.signature(of: rest) == "ssb")
        let back = try m.setRest.arguments.decode(rest)
        #expect(back == ("today", "tomorrow", true))
        let update = m.updateTask.arguments.encode(("t-1", "", "09:00"))
        #expect(DBusValue.signature(of: update) == m.updateTask.inSignature)
        let history = m.getHistory.arguments.encode(("", "2026-03-01"))
        #expect(DBusValue.signature(of: history) == m.getHistory.inSignature)
        #expect(throws: BusDecodingError.self) { try m.addTask.arguments.decode([.string("only one")]) }
    }

    @Test("small replies are values, large ones are written straight into the body, with the same signature")
    func repliesEncode() throws {
        let m = PetBus.Methods.self
        #expect(DBusValue.signature(of: m.markNextDone.reply.encode(("t-1", 2))) == "si")
        #expect(DBusValue.signature(of: m.snoozeNext.reply.encode(("t-1", 1_700_000_000))) == "sx")
        #expect(DBusValue.signature(of: m.listRestDays.reply.encode(["2026-03-02"])) == "as")
        #expect(!m.markDone.reply.isWritten && !m.addTask.reply.isWritten && !m.listRestDays.reply.isWritten)
        for written in [
            m.getTimeline.outSignature, m.listTasks.outSignature, m.listTemplates.outSignature,
        ] { #expect(written == "aa{sv}") }
        #expect(m.getTimeline.reply.isWritten && m.listTasks.reply.isWritten && m.getHistory.reply.isWritten)
        #expect(m.getWidgetEntry.reply.isWritten && m.getPet.reply.isWritten && m.getStatus.reply.isWritten)
        let body = try m.getHistory.reply.encoded(([], true))
        #expect(body.signature == m.getHistory.outSignature)
        let (records, more) = try m.getHistory.reply.decode(try body.values())
        #expect(records.isEmpty && more)
    }
}

extension ContractTableTests {
    @Test("the Stages property's value decodes back to the table, built in or custom")
    func stagesRoundTrip() throws {
        #expect(try StageTable(dbus: StageTable.builtIn.dbus) == .builtIn)
        let custom = try StageTable(stages: [
            Stage(i: 0, name: "Egg", threshold: 4, asset: "pet_egg.png"),
            Stage(i: 1, name: "Hen", threshold: 0, asset: "pet_hen.png"),
        ])
        #expect(custom.dbus.signature == PetBus.Property.stages.signature)
        #expect(try StageTable(dbus: custom.dbus) == custom)
        #expect(throws: BusDecodingError.self) { try StageTable(dbus: .vardictArray([])) }
    }
}
