import DBusKit
import Foundation
import TestSupport
import Testing

/// Hostile and malformed input (petprogress(7) §6.1, §4, §3): each call gets the documented error, the
/// daemon stays up, and nothing changes — not the mutation count, not the task lists, not the
/// state file's bytes.
@Suite("Hostile input")
struct HostileInputTests {
    static let now = "2026-03-02T08:30:00+01:00"
    static let ours = "io.petprogress.PetProgress1.Error."
    static let std = "org.freedesktop.DBus.Error."
    static let properties = "org.freedesktop.DBus.Properties"

    /// A daemon with a pending task, a done task, a task for tomorrow and a template.
    struct Setup {
        let world: World
        let daemon: PetDaemon
        let client: RawClient
        let pending: String
        let done: String
        let tomorrow: String
        let template: String

        static func make(_ label: String) async throws -> Setup {
            let world = try await World(label)
            do {
                let daemon = try await world.daemon(now: HostileInputTests.now)
                let client = try world.client()
                let pending = try client.addTask("Pending", "09:00")
                let done = try client.addTask("Done", "08:00")
                #expect(try client.markDone(done) == 2)
                let tomorrow = try client.addTaskFor("Tomorrow", "10:00", day: "tomorrow")
                let template = try client.addTaskFor("Template", "20:00", day: "tomorrow", repeat: "weekdays")
                try client.setRest("tomorrow", "2026-03-05", true)
                return Setup(
                    world: world, daemon: daemon, client: client, pending: pending, done: done, tomorrow: tomorrow,
                    template: template)
            } catch {
                world.close()
                throw error
            }
        }

        /// A record with its keys in order (a Dictionary's description order is not stable).
        static func render(_ record: [String: DBusValue]) -> String {
            record.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: ",")
        }

        /// Everything observable about the data.
        func fingerprint() throws -> [String] {
            let status = try client.status()
            var parts = ["mutations=\(status.int("mutations") ?? -1)", "open=\(status.string("open_day") ?? "")"]
            for day in ["", "tomorrow"] { parts.append("\(day): \(try client.tasks(day).map(Self.render))") }
            parts.append(
                "templates: \((try client.call("ListTemplates").first?.vardictArrayValue ?? []).map(Self.render))")
            for name in ["ResetTime", "GraceMinutes", "SnoozeMinutes", "Rollover"] {
                parts.append("\(name)=\(try client.property(name))")
            }
            parts.append("pet: \(Self.render(try client.pet()))")
            parts.append("rest days: \(try client.restDays())")
            let state = try Data(contentsOf: URL(fileURLWithPath: daemon.dataDirectory + "/state.json"))
            parts.append("state.json: \(state.base64EncodedString())")
            return parts
        }
    }

    /// Compares two fingerprints part by part, naming the part that changed.
    static func expectUnchanged(
        _ before: [String], _ after: [String], sourceLocation: SourceLocation = #_sourceLocation
    ) {
        #expect(before.count == after.count, sourceLocation: sourceLocation)
        for (old, new) in zip(before, after) where old != new {
            Issue.record(
                "data changed:\nbefore: \(old.prefix(1500))\nafter:  \(new.prefix(1500))",
                sourceLocation: sourceLocation)
        }
    }

    /// The error name dbus-send printed (`Error NAME: sentence`), or nil if it succeeded.
    static func errorName(_ result: ToolResult) -> String? {
        guard result.status != 0 else { return nil }
        guard let line = result.errors.split(separator: "\n").first(where: { $0.hasPrefix("Error ") }) else {
            return result.errors
        }
        let name = line.dropFirst("Error ".count).prefix { $0 != ":" }
        return String(name)
    }

    struct Case: Sendable, CustomStringConvertible {
        let member: String
        let arguments: [String]
        let expected: [String]
        var description: String { "\(member) \(arguments.map { String($0.prefix(40)) })" }
        init(_ member: String, _ arguments: [String], _ expected: String...) {
            self.member = member
            self.arguments = arguments
            self.expected = expected
        }
    }

    /// Cases with ids filled in from the setup.
    static func cases(_ s: Setup) -> [Case] {
        let iface = "string:\(PetDaemon.interface)"
        var list: [Case] = [
            // Wrong argument signatures.
            Case("AddTask", ["string:only one"], std + "InvalidArgs"),
            Case("AddTask", ["int32:5", "string:09:00"], std + "InvalidArgs"),
            Case("AddTask", ["string:a", "string:09:00", "string:extra"], std + "InvalidArgs"),
            Case("AddTaskFor", ["string:a", "string:09:00", "string:"], std + "InvalidArgs"),
            Case("MarkDone", [], std + "InvalidArgs"),
            Case("MarkDone", ["int32:1"], std + "InvalidArgs"),
            Case("Undo", ["objpath:/x"], std + "InvalidArgs"),
            Case("GetWidgetEntry", ["string:x"], std + "InvalidArgs"),
            Case("ListTasks", [], std + "InvalidArgs"),
            Case("UpdateTask", ["string:\(s.pending)", "string:x"], std + "InvalidArgs"),
            Case("\(properties).Get", [iface], std + "InvalidArgs"),
            Case("\(properties).Set", [iface, "string:GraceMinutes"], std + "InvalidArgs"),
            Case("\(properties).Set", [iface, "string:GraceMinutes", "uint32:30"], std + "InvalidArgs"),
            // The standard interfaces too (libdbus itself answers these with any arguments).
            Case("org.freedesktop.DBus.Peer.Ping", ["string:x"], std + "InvalidArgs"),
            Case("org.freedesktop.DBus.Peer.GetMachineId", ["int32:1"], std + "InvalidArgs"),
            Case("org.freedesktop.DBus.Introspectable.Introspect", ["string:x"], std + "InvalidArgs"),
            Case("\(properties).GetAll", [], std + "InvalidArgs"),
            // Unknown properties, read-only WidgetEntry.
            Case("\(properties).Get", [iface, "string:Nope"], std + "UnknownProperty"),
            Case("\(properties).Set", [iface, "string:Nope", "variant:int32:1"], std + "UnknownProperty"),
            Case("\(properties).Set", [iface, "string:WidgetEntry", "variant:string:x"], std + "PropertyReadOnly"),
            Case("\(properties).Set", [iface, "string:WidgetEntry", "variant:int32:3"], std + "PropertyReadOnly"),
            // Titles: empty, blank, control characters, too long (201 code points; 100 KiB).
            Case("AddTask", ["string:", "string:09:00"], ours + "InvalidArgument"),
            Case("AddTask", ["string:   \t ", "string:09:00"], ours + "InvalidArgument"),
            Case("AddTask", ["string:bell\u{7}", "string:09:00"], ours + "InvalidArgument"),
            Case("AddTask", ["string:two\nlines", "string:09:00"], ours + "InvalidArgument"),
            Case("AddTask", ["string:esc\u{1B}[31m", "string:09:00"], ours + "InvalidArgument"),
            Case("AddTask", ["string:del\u{7F}", "string:09:00"], ours + "InvalidArgument"),
            Case("AddTask", ["string:c1\u{85}inside", "string:09:00"], ours + "InvalidArgument"),
            Case("AddTask", ["string:nul-ish\u{1}", "string:09:00"], ours + "InvalidArgument"),
            Case(
                "AddTask", ["string:" + String(repeating: "é", count: 201), "string:09:00"], ours + "InvalidArgument"),
            Case(
                "AddTask", ["string:" + String(repeating: "x", count: 100 * 1024), "string:09:00"],
                ours + "InvalidArgument"),
            Case(
                "AddTaskFor", ["string:", "string:09:00", "string:tomorrow", "string:daily"], ours + "InvalidArgument"),
            Case("UpdateTask", ["string:\(s.pending)", "string:tab\there", "string:"], ours + "InvalidArgument"),
            // Days and repeat rules.
            Case("AddTaskFor", ["string:a", "string:09:00", "string:yesterday", "string:"], ours + "InvalidArgument"),
            Case("AddTaskFor", ["string:a", "string:09:00", "string:2026-03-05", "string:"], ours + "InvalidArgument"),
            Case("AddTaskFor", ["string:a", "string:09:00", "string:", "string:sometimes"], ours + "InvalidArgument"),
            Case("AddTaskFor", ["string:a", "string:09:00", "string:", "string:mon,mon"], ours + "InvalidArgument"),
            Case("AddTaskFor", ["string:a", "string:09:00", "string:", "string:Mon"], ours + "InvalidArgument"),
            Case("AddTaskFor", ["string:a", "string:09:00", "string:", "string:mon,,tue"], ours + "InvalidArgument"),
            Case("ListTasks", ["string:garbage"], ours + "InvalidArgument"),
            // Unknown ids.
            Case("MarkDone", ["string:nope"], ours + "NotFound"),
            Case("MarkDone", ["string:20260302-999"], ours + "NotFound"),
            Case("Undo", ["string:nope"], ours + "NotFound"),
            Case("Snooze", ["string:t-999"], ours + "NotFound"),
            Case("DeleteTask", ["string:"], ours + "NotFound"),
            Case("UpdateTask", ["string:nope", "string:", "string:99:99"], ours + "NotFound"),
            // Ids of the wrong kind or day.
            Case("MarkDone", ["string:\(s.template)"], ours + "InvalidArgument"),
            Case("Snooze", ["string:\(s.template)"], ours + "InvalidArgument"),
            Case("MarkDone", ["string:\(s.tomorrow)"], ours + "InvalidArgument"),
            Case("Undo", ["string:\(s.tomorrow)"], ours + "InvalidArgument"),
            Case("Snooze", ["string:\(s.tomorrow)"], ours + "InvalidArgument"),
            // Done/not done, after the argument checks.
            Case("MarkDone", ["string:\(s.done)"], ours + "AlreadyDone"),
            Case("Snooze", ["string:\(s.done)"], ours + "AlreadyDone"),
            Case("DeleteTask", ["string:\(s.done)"], ours + "AlreadyDone"),
            Case("UpdateTask", ["string:\(s.done)", "string:", "string:10:00"], ours + "AlreadyDone"),
            Case("UpdateTask", ["string:\(s.done)", "string:", "string:99:99"], ours + "InvalidArgument"),
            Case("UpdateTask", ["string:\(s.done)", "string:\u{7}", "string:10:00"], ours + "InvalidArgument"),
            Case("Undo", ["string:\(s.pending)"], ours + "NotDone"),
            // Settings: out of range and wrongly typed variants.
            Case("\(properties).Set", [iface, "string:GraceMinutes", "variant:uint32:721"], ours + "InvalidArgument"),
            Case(
                "\(properties).Set", [iface, "string:GraceMinutes", "variant:uint32:4294967295"],
                ours + "InvalidArgument"),
            Case("\(properties).Set", [iface, "string:GraceMinutes", "variant:int32:-1"], ours + "InvalidArgument"),
            Case("\(properties).Set", [iface, "string:GraceMinutes", "variant:int32:721"], ours + "InvalidArgument"),
            Case("\(properties).Set", [iface, "string:GraceMinutes", "variant:string:30"], ours + "InvalidArgument"),
            Case("\(properties).Set", [iface, "string:GraceMinutes", "variant:int64:30"], ours + "InvalidArgument"),
            Case("\(properties).Set", [iface, "string:GraceMinutes", "variant:double:30"], ours + "InvalidArgument"),
            Case("\(properties).Set", [iface, "string:SnoozeMinutes", "variant:uint32:0"], ours + "InvalidArgument"),
            Case("\(properties).Set", [iface, "string:SnoozeMinutes", "variant:uint32:241"], ours + "InvalidArgument"),
            Case("\(properties).Set", [iface, "string:SnoozeMinutes", "variant:int32:-5"], ours + "InvalidArgument"),
            Case(
                "\(properties).Set", [iface, "string:SnoozeMinutes", "variant:boolean:true"], ours + "InvalidArgument"),
            Case("\(properties).Set", [iface, "string:ResetTime", "variant:string:24:00"], ours + "InvalidArgument"),
            Case("\(properties).Set", [iface, "string:ResetTime", "variant:string:4:30"], ours + "InvalidArgument"),
            Case("\(properties).Set", [iface, "string:ResetTime", "variant:string:"], ours + "InvalidArgument"),
            Case("\(properties).Set", [iface, "string:ResetTime", "variant:int32:430"], ours + "InvalidArgument"),
            Case("\(properties).Set", [iface, "string:Rollover", "variant:string:true"], ours + "InvalidArgument"),
            Case("\(properties).Set", [iface, "string:Rollover", "variant:int32:1"], ours + "InvalidArgument"),
            // Rest days and history: signatures, malformed days, the past, the 365-day bound.
            Case("SetRest", ["string:today", "string:today"], std + "InvalidArgs"),
            Case("SetRest", ["string:today", "string:today", "string:true"], std + "InvalidArgs"),
            Case("SetRest", ["string:today", "string:today", "boolean:true", "boolean:true"], std + "InvalidArgs"),
            Case("ListRestDays", ["string:x"], std + "InvalidArgs"),
            Case("GetHistory", ["string:"], std + "InvalidArgs"),
            Case("GetHistory", ["int32:2026", "string:"], std + "InvalidArgs"),
            Case("SetRest", ["string:yesterday", "string:today", "boolean:true"], ours + "InvalidArgument"),
            Case("SetRest", ["string:", "string:today", "boolean:false"], ours + "InvalidArgument"),
            Case("SetRest", ["string:٢٠٢٦-٠٣-٠٥", "string:2026-03-05", "boolean:true"], ours + "InvalidArgument"),
            Case("SetRest", ["string:2026-03-05\n", "string:2026-03-05", "boolean:true"], ours + "InvalidArgument"),
            Case("SetRest", ["string:+2026-03-05", "string:2026-03-05", "boolean:true"], ours + "InvalidArgument"),
            Case("SetRest", ["string:2026-03-05", "string:2026-03-04", "boolean:false"], ours + "InvalidArgument"),
            Case("SetRest", ["string:2026-03-01", "string:2026-03-04", "boolean:false"], ours + "ReadOnlyDay"),
            Case("SetRest", ["string:0001-01-01", "string:9999-12-31", "boolean:true"], ours + "ReadOnlyDay"),
            Case("SetRest", ["string:today", "string:2027-03-03", "boolean:true"], ours + "InvalidArgument"),
            Case("SetRest", ["string:today", "string:9999-12-31", "boolean:false"], ours + "InvalidArgument"),
            Case(
                "SetRest", ["string:" + String(repeating: "9", count: 100 * 1024), "string:today", "boolean:true"],
                ours + "InvalidArgument"),
            Case("GetHistory", ["string:garbage", "string:"], ours + "InvalidArgument"),
            Case("GetHistory", ["string:", "string:tomorrow"], ours + "InvalidArgument"),
            Case("GetHistory", ["string:2026-03-05", "string:2026-03-01"], ours + "InvalidArgument"),
            Case("GetHistory", ["string:2026-02-30", "string:"], ours + "InvalidArgument"),
        ]
        // Bad times, for AddTask, AddTaskFor and UpdateTask.
        for time in [
            "9:00", "24:00", "12:60", "ab:cd", "", "12:00:00", "٠٩:٠٠", " 09:00", "-1:00", "09:00\n", "0900", "+9:00",
        ] {
            list.append(Case("AddTask", ["string:a", "string:\(time)"], ours + "InvalidArgument"))
        }
        list.append(
            Case("AddTaskFor", ["string:a", "string:25:00", "string:tomorrow", "string:"], ours + "InvalidArgument"))
        list.append(Case("UpdateTask", ["string:\(s.pending)", "string:", "string:7"], ours + "InvalidArgument"))
        list.append(Case("UpdateTask", ["string:\(s.template)", "string:", "string:99:00"], ours + "InvalidArgument"))
        return list
    }

    @Test("each hostile dbus-send call gets its documented error; data unchanged, daemon up")
    func hostileCalls() async throws {
        let setup = try await Setup.make("hostile")
        defer { setup.world.close() }
        let before = try setup.fingerprint()
        for hostile in Self.cases(setup) {
            let result = try await setup.world.dbusSend(hostile.member, hostile.arguments)
            let name = Self.errorName(result)
            #expect(
                name.map { hostile.expected.contains($0) } == true,
                "\(hostile): got \(name ?? "success") \(result.errors.prefix(300))")
            if let name, name.hasPrefix(Self.ours) {
                #expect(result.errors.count > "Error \(name): ".count + 10, "a human sentence: \(result.errors)")
            }
        }
        #expect(setup.daemon.process.isRunning)
        Self.expectUnchanged(before, try setup.fingerprint())
    }

    @Test("an unknown member answers UnknownMethod")
    func unknownMember() async throws {
        let setup = try await Setup.make("unknown")
        defer { setup.world.close() }
        let before = try setup.fingerprint()
        var result = try await setup.world.dbusSend("Frobnicate", ["string:x"])
        #expect(Self.errorName(result) == Self.std + "UnknownMethod", "\(result)")
        result = try await setup.world.dbusSend("MarkDone2", [])
        #expect(Self.errorName(result) == Self.std + "UnknownMethod", "\(result)")
        result = try await setup.world.dbusSend("org.freedesktop.DBus.Peer.Frobnicate", [])
        #expect(Self.errorName(result) == Self.std + "UnknownMethod", "\(result)")
        #expect(setup.client.errorName("Nope") == Self.std + "UnknownMethod")
        // An unknown interface: UnknownMethod or UnknownInterface are both standard answers.
        result = try await setup.world.dbusSend("org.example.Nope.Frobnicate", [])
        #expect(
            [Self.std + "UnknownMethod", Self.std + "UnknownInterface"].contains(Self.errorName(result) ?? ""),
            "\(result)")
        #expect(setup.daemon.process.isRunning)
        Self.expectUnchanged(before, try setup.fingerprint())
    }

    @Test("1 MiB titles and other huge or odd values from DBusKit, and unknown paths")
    func hugeValues() async throws {
        let setup = try await Setup.make("huge")
        defer { setup.world.close() }
        let before = try setup.fingerprint()
        let client = setup.client
        let mib = String(repeating: "x", count: 1 << 20)
        #expect(client.errorName("AddTask", [.string(mib), .string("09:00")]) == Self.ours + "InvalidArgument")
        #expect(client.errorName("AddTask", [.string("ok"), .string(mib)]) == Self.ours + "InvalidArgument")
        #expect(client.errorName("MarkDone", [.string(mib)]) == Self.ours + "NotFound")
        #expect(client.errorName("ListTasks", [.string(mib)]) == Self.ours + "InvalidArgument")
        #expect(
            client.errorName("UpdateTask", [.string(setup.pending), .string(mib), .string("")]) == Self.ours
                + "InvalidArgument")
        #expect(
            client.errorName("AddTaskFor", [.string("a"), .string("09:00"), .string(mib), .string(mib)]) == Self.ours
                + "InvalidArgument")
        // Zero-width spaces are not Cc and not white space to Swift's trimming: either answer is
        // defensible, but it must be a reply (the daemon survives) and, if accepted, one task.
        let zeroWidth = client.errorName(
            "AddTask", [.string(String(repeating: "\u{200B}", count: 3)), .string("09:00")])
        #expect(zeroWidth == nil || zeroWidth == Self.ours + "InvalidArgument")
        #expect(client.errorName("GetWidgetEntry", [.array(elementSignature: "a{sv}", [])]) == Self.std + "InvalidArgs")
        #expect(
            client.errorName("AddTask", [.variant(.string("a")), .variant(.string("09:00"))]) == Self.std
                + "InvalidArgs")
        #expect(client.errorName("MarkDone", [.structure([.string("x")])]) == Self.std + "InvalidArgs")
        let wrongPath = try await setup.world.sandbox.run(
            "dbus-send",
            [
                "--bus=\(setup.world.bus.address)", "--print-reply", "--dest=\(PetDaemon.name)", "/io/petprogress/Nope",
                "\(PetDaemon.interface).GetStatus",
            ], environment: setup.world.bus.environment)
        #expect(wrongPath.status != 0)
        #expect(setup.daemon.process.isRunning)
        if zeroWidth == nil {
            // Accepted (it is not Cc): that one task and its mutation are the only change.
            let zeroWidthTasks = try client.tasks().filter {
                $0.string("title")?.unicodeScalars.allSatisfy { $0 == "\u{200B}" } == true
            }
            #expect(zeroWidthTasks.count == 1)
            let id = try #require(zeroWidthTasks.first?.string("id"))
            try client.call("DeleteTask", [.string(id)])
            let after = try setup.fingerprint()
            #expect(after.first == "mutations=\(2 + (Int(before.first?.dropFirst("mutations=".count) ?? "") ?? 0))")
            Self.expectUnchanged(Array(before.dropFirst().dropLast()), Array(after.dropFirst().dropLast()))
        } else {
            Self.expectUnchanged(before, try setup.fingerprint())
        }
    }

    @Test("twenty concurrent hostile dbus-send clients each get their error; the daemon stays up, data unchanged")
    func manyClients() async throws {
        let setup = try await Setup.make("many")
        defer { setup.world.close() }
        let before = try setup.fingerprint()
        let picks = Array(Self.cases(setup).enumerated().filter { $0.offset % 4 == 0 }.map(\.element).prefix(20))
        #expect(picks.count == 20)
        let world = setup.world
        var children: [(Case, Spawned)] = []
        for hostile in picks {
            let child = try world.sandbox.spawn(
                "dbus-send",
                [
                    "--bus=\(world.bus.address)", "--print-reply", "--reply-timeout=20000", "--dest=\(PetDaemon.name)",
                    PetDaemon.path,
                    hostile.member.contains(".") ? hostile.member : "\(PetDaemon.interface).\(hostile.member)",
                ]
                    + hostile.arguments,
                environment: world.bus.environment, label: "dbus-send")
            children.append((hostile, child))
        }
        for (hostile, child) in children {
            let status = await child.waitExit(timeout: .seconds(30))
            #expect(status == 1, "\(hostile)")
            let name = Self.errorName(ToolResult(status: status ?? -1, output: child.output, errors: child.errors))
            #expect(name.map { hostile.expected.contains($0) } == true, "\(hostile): \(child.errors)")
        }
        #expect(setup.daemon.process.isRunning)
        Self.expectUnchanged(before, try setup.fingerprint())
        // And it still works.
        #expect(try setup.client.markDone(setup.pending) == 2)
    }

    @Test("MarkNextDone and SnoozeNext with nothing pending: NothingPending")
    func nothingPending() async throws {
        let world = try await World("nothing")
        defer { world.close() }
        _ = try await world.daemon(now: Self.now)
        let client = try world.client()
        #expect(client.errorName("MarkNextDone") == Self.ours + "NothingPending")
        #expect(client.errorName("SnoozeNext") == Self.ours + "NothingPending")
        _ = try client.markDone(try client.addTask("Only", "08:30"))
        #expect(client.errorName("MarkNextDone") == Self.ours + "NothingPending")
        #expect(try client.status().int("mutations") == 2)
    }
}
