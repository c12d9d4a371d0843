import DBusKit
import PetBus
import PetCore
import Testing

@testable import PetService

/// Reading writes nothing (petprogress(7) §5: the daemon writes on changes, ticks and closeouts only): no
/// read method or property read touches the store unless a tick or a closeout is due, and then
/// the first call writes once and the next ones not at all.
@Suite("Reads write nothing")
struct WriteCountTests {
    static let reads: [(String, [DBusValue], String)] =
        [
            ("GetWidgetEntry", [], PetBus.interface),
            ("GetTimeline", [], PetBus.interface),
            ("ListTasks", [.string("")], PetBus.interface),
            ("ListTasks", [.string("tomorrow")], PetBus.interface),
            ("ListTasks", [.string("2026-03-02")], PetBus.interface),
            ("ListTasks", [.string("2026-02-27")], PetBus.interface),
            ("ListTemplates", [], PetBus.interface),
            ("GetPet", [], PetBus.interface),
            ("ListRestDays", [], PetBus.interface),
            ("GetHistory", [.string(""), .string("")], PetBus.interface),
            ("GetStatus", [], PetBus.interface),
            ("GetAll", [.string(PetBus.interface)], PropertiesInterface.name),
            ("GetAll", [.string("")], PropertiesInterface.name),
            ("Introspect", [], IntrospectableInterface.name),
        ]
        + PetBus.Property.allCases.map {
            ("Get", [.string(PetBus.interface), .string($0.rawValue)], PropertiesInterface.name)
        }

    /// A service with some of everything: a closed day in history, tasks, a template, a rest day.
    static func busyService() throws -> (ServiceFixture, LocalZone) {
        let berlin = try LocalZone.named("Europe/Berlin")
        let f = try ServiceFixture(now: try berlin.at("2026-03-02", "21:10"), zone: berlin)
        let water = try f.addTask("Water", "21:30")
        _ = try f.succeed("MarkDone", [.string(water)])
        f.now = try berlin.at("2026-03-03", "08:10")
        _ = try f.addTask("Walk", "10:00")
        _ = try f.succeed("AddTaskFor", [.string("Read"), .string("21:00"), .string(""), .string("daily")])
        _ = try f.succeed("SetRest", [.string("tomorrow"), .string("tomorrow"), .bool(true)])
        f.forget()
        return (f, berlin)
    }

    @Test("no read writes, or signals, between ticks")
    func readsBetweenTicks() throws {
        let (f, berlin) = try Self.busyService()
        defer { f.close() }
        for minute in 10..<(10 + Self.reads.count) {
            let (member, arguments, interface) = Self.reads[minute - 10]
            f.now = try berlin.at("2026-03-03", "08:\(minute)")
            _ = try f.succeed(member, arguments, interface: interface)
            #expect(f.writes == [], "\(interface).\(member)\(arguments)")
            #expect(f.signals == [], "\(interface).\(member)\(arguments)")
        }
    }

    @Test("a tick due: the first read saves the snapshot once, the next reads write nothing")
    func readsAcrossTick() throws {
        let (f, berlin) = try Self.busyService()
        defer { f.close() }
        f.now = try berlin.at("2026-03-03", "09:00")
        for (member, arguments, interface) in Self.reads {
            _ = try f.succeed(member, arguments, interface: interface)
        }
        #expect(f.writes == ["save"])
        #expect(f.signals == ["PropertiesChanged(WidgetEntry)", "EntryChanged"])
    }

    @Test("a closeout due: the first read commits the day once, the next reads write nothing")
    func readsAcrossCloseout() throws {
        let (f, berlin) = try Self.busyService()
        defer { f.close() }
        f.now = try berlin.at("2026-03-04", "00:00")
        for (member, arguments, interface) in Self.reads {
            _ = try f.succeed(member, arguments, interface: interface)
        }
        #expect(f.writes == ["closeDays(1 records)"])
        #expect(f.signals == ["TasksChanged", "PropertiesChanged(WidgetEntry)", "EntryChanged"])
    }
}
