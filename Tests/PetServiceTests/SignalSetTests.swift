import DBusKit
import PetBus
import PetCore
import Testing

@testable import PetService

/// The exact signals each change sends (petprogress(7) §6.1): `TasksChanged` and `PropertiesChanged` for
/// `WidgetEntry` when the open day's tasks or rest flag change, `PropertiesChanged` for a setting
/// when it is set, nothing for a refused call, and never `EntryChanged` (that is for ticks).
@Suite("Signals of each change")
struct SignalSetTests {
    static let taskPart = ["TasksChanged", "PropertiesChanged(WidgetEntry)"]

    /// One call and the signals it must send after its reply.
    struct Step: CustomStringConvertible {
        let member: String
        let arguments: [ServiceFixture.Argument]
        let signals: [String]
        var interface = PetBus.interface
        var description: String { "\(member)(\(arguments))" }
    }

    /// A day of changes, each with its signals; `$a`, `$b`, … are the ids of the tasks the steps
    /// create, in order.
    static let day: [Step] = [
        Step(member: "AddTask", arguments: [.text("Water"), .text("09:00")], signals: taskPart),  // $a
        Step(member: "AddTask", arguments: [.text("Walk"), .text("10:00")], signals: taskPart),  // $b
        Step(
            member: "AddTaskFor", arguments: [.text("Pack"), .text("08:00"), .text("tomorrow"), .text("")],
            signals: []),  // $c: the next day's, not in the entry
        Step(
            member: "AddTaskFor", arguments: [.text("Read"), .text("21:00"), .text(""), .text("daily")],
            signals: taskPart),  // $d: a template, and today's instance
        Step(member: "UpdateTask", arguments: [.id(0), .text("Water the plants"), .text("")], signals: taskPart),
        Step(member: "UpdateTask", arguments: [.id(2), .text(""), .text("07:30")], signals: []),
        // A template's edit also changes today's untouched instance (petprogress(7) §3): the task part.
        Step(member: "UpdateTask", arguments: [.id(3), .text("Read a chapter"), .text("")], signals: taskPart),
        Step(member: "MarkDone", arguments: [.id(0)], signals: taskPart),
        Step(member: "Undo", arguments: [.id(0)], signals: taskPart),
        Step(member: "MarkNextDone", arguments: [], signals: taskPart),
        Step(member: "Snooze", arguments: [.id(1)], signals: taskPart),
        Step(member: "SnoozeNext", arguments: [], signals: taskPart),
        Step(member: "DeleteTask", arguments: [.id(2)], signals: []),
        Step(member: "DeleteTask", arguments: [.id(1)], signals: taskPart),
        Step(member: "SetRest", arguments: [.text("today"), .text("today"), .flag(true)], signals: taskPart),
        Step(member: "SetRest", arguments: [.text("tomorrow"), .text("tomorrow"), .flag(true)], signals: []),
        Step(member: "SetRest", arguments: [.text("today"), .text("tomorrow"), .flag(false)], signals: taskPart),
        Step(member: "DeleteTask", arguments: [.id(3)], signals: []),  // stops future instances only
        // The grace moves the due and overdue flags of the entry's task part (petprogress(7) §3.2).
        Step(
            member: "Set", arguments: [.text(PetBus.interface), .text("GraceMinutes"), .value(.variant(.uint32(30)))],
            signals: taskPart + ["PropertiesChanged(GraceMinutes)"], interface: PropertiesInterface.name),
        setting("SnoozeMinutes", .int32(20)),
        setting("ResetTime", .string("04:00")),
        setting("Rollover", .bool(true)),
    ]

    static func setting(_ name: String, _ value: DBusValue) -> Step {
        Step(
            member: "Set", arguments: [.text(PetBus.interface), .text(name), .value(.variant(value))],
            signals: ["PropertiesChanged(\(name))"], interface: PropertiesInterface.name)
    }

    @Test("each change sends exactly its signals, after its reply, and saves once")
    func changes() throws {
        let berlin = try LocalZone.named("Europe/Berlin")
        let f = try ServiceFixture(now: try berlin.at("2026-03-02", "08:10"), zone: berlin)
        defer { f.close() }
        var ids: [String] = []
        for step in Self.day {
            f.forget()
            let reply = try f.succeed(step.member, step.arguments.map { $0.value(ids) }, interface: step.interface)
            if step.member.hasPrefix("AddTask"), let id = reply.first?.stringValue { ids.append(id) }
            #expect(f.lastCall.refresh == [], "\(step): no tick, no closeout")
            #expect(f.lastCall.call == step.signals, "\(step)")
            #expect(f.writes == ["save"], "\(step)")
        }
        #expect(ids.count == 4)
    }

    @Test("a refused call sends nothing and writes nothing")
    func refused() throws {
        let berlin = try LocalZone.named("Europe/Berlin")
        let f = try ServiceFixture(now: try berlin.at("2026-03-02", "08:10"), zone: berlin)
        defer { f.close() }
        let water = try f.addTask("Water", "09:00")
        let properties = PropertiesInterface.name
        let refusals: [(String, [DBusValue], String, String)] = [
            ("MarkDone", [.string("20260302-999")], PetBus.interface, "NotFound"),
            ("Undo", [.string(water)], PetBus.interface, "NotDone"),
            ("AddTask", [.string("Walk"), .string("25:00")], PetBus.interface, "InvalidArgument"),
            ("AddTask", [.string(" "), .string("10:00")], PetBus.interface, "InvalidArgument"),
            ("SetRest", [.string("2026-03-01"), .string("today"), .bool(true)], PetBus.interface, "ReadOnlyDay"),
            (
                "Set", [.string(PetBus.interface), .string("GraceMinutes"), .variant(.uint32(9999))], properties,
                "InvalidArgument"
            ),
            (
                "Set", [.string(PetBus.interface), .string("Rollover"), .variant(.string("yes"))], properties,
                "InvalidArgument"
            ),
            (
                "Set", [.string(PetBus.interface), .string("WidgetEntry"), .variant(.string(""))], properties,
                DBusError.Name.propertyReadOnly
            ),
        ]
        f.forget()
        for (member, arguments, interface, error) in refusals {
            #expect(try f.failure(member, arguments, interface: interface) == error, "\(member) \(arguments)")
        }
        #expect(try f.succeed("MarkDone", [.string(water)]).count == 1)
        #expect(try f.failure("MarkDone", [.string(water)]) == "AlreadyDone")
        #expect(try f.failure("MarkNextDone") == "NothingPending")
        #expect(
            f.signals == ["TasksChanged", "PropertiesChanged(WidgetEntry)"], "only the one MarkDone that succeeded")
        #expect(f.writes == ["save"])
    }
}

extension ServiceFixture {
    /// An argument of a planned call: a string, a flag, any value, or the id of the n-th task the
    /// plan created.
    enum Argument: CustomStringConvertible {
        case text(String)
        case flag(Bool)
        case value(DBusValue)
        case id(Int)

        func value(_ ids: [String]) -> DBusValue {
            switch self {
            case .text(let s): .string(s)
            case .flag(let b): .bool(b)
            case .value(let v): v
            case .id(let n): .string(ids.indices.contains(n) ? ids[n] : "missing-\(n)")
            }
        }

        var description: String {
            switch self {
            case .text(let s): "\"\(s)\""
            case .flag(let b): "\(b)"
            case .value(let v): "\(v)"
            case .id(let n): "$\(n)"
            }
        }
    }
}
