import DBusKit
import Foundation
import TestSupport
import Testing

/// Every member and every property set is callable from dbus-send, busctl, gdbus and DBusKit, with
/// the results checked against the rules (petprogress(7) §6.1). The daemon runs at 2026-03-02 08:30 (a
/// Monday) in Europe/Berlin on the simulated clock at real speed, so no tick passes mid-test.
@Suite("Clients")
struct ClientTests {
    static let now = "2026-03-02T08:30:00+01:00"

    /// The first `string "…"` in dbus-send output that starts with `prefix`.
    static func firstString(_ output: String, prefix: String) -> String? {
        for line in output.split(separator: "\n") {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            guard trimmed.hasPrefix("string \"\(prefix)") else { continue }
            return String(trimmed.dropFirst("string \"".count).dropLast())
        }
        return nil
    }

    /// Whether dbus-send's `--print-reply` output has `key` followed by `value` (a dict entry).
    static func hasEntry(_ output: String, _ key: String, _ value: String) -> Bool {
        let lines = output.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        for (index, line) in lines.enumerated() where line == "string \"\(key)\"" {
            if index + 1 < lines.count, lines[index + 1].hasSuffix(value) { return true }
        }
        return false
    }

    @Test("every method and property set from dbus-send")
    func dbusSend() async throws {
        let world = try await World("dbussend")
        defer { world.close() }
        _ = try await world.daemon(now: Self.now)
        let swift = try world.client()
        func send(_ member: String, _ arguments: [String] = []) async throws -> String {
            let result = try await world.dbusSend(member, arguments)
            #expect(result.status == 0, "\(member): \(result)")
            return result.output
        }

        var out = try await send("GetStatus")
        #expect(Self.hasEntry(out, "open_day", "string \"2026-03-02\""))
        #expect(Self.hasEntry(out, "mutations", "uint64 0"))

        out = try await send("AddTask", ["string:Walk the dog", "string:09:00"])
        let walk = try #require(Self.firstString(out, prefix: "20260302-"))
        out = try await send("AddTaskFor", ["string:Water plants", "string:10:00", "string:tomorrow", "string:"])
        let plants = try #require(Self.firstString(out, prefix: "20260303-"))
        out = try await send("AddTaskFor", ["string:Stretch", "string:07:00", "string:today", "string:daily"])
        let template = try #require(Self.firstString(out, prefix: "t-"))
        out = try await send("ListTemplates")
        #expect(Self.hasEntry(out, "id", "string \"\(template)\""))
        #expect(Self.hasEntry(out, "repeat", "string \"daily\""))

        // Today's instance of the daily template was created (Monday matches).
        var today = try swift.tasks()
        #expect(today.map { $0.string("title") } == ["Stretch", "Walk the dog"])
        let stretch = try #require(today.first { $0.string("template_id") == template }?.string("id"))

        _ = try await send("UpdateTask", ["string:\(walk)", "string:Walk the dog twice", "string:"])
        #expect(try swift.tasks().first { $0.string("id") == walk }?.string("title") == "Walk the dog twice")
        #expect(try swift.tasks().first { $0.string("id") == walk }?.string("time") == "09:00")

        out = try await send("GetWidgetEntry")
        #expect(Self.hasEntry(out, "next_task_id", "string \"\(stretch)\""))
        #expect(Self.hasEntry(out, "next_task_overdue", "boolean true"))
        #expect(Self.hasEntry(out, "tasks_total", "int32 2"))

        // The next task is the overdue 07:00 Stretch: 90 minutes off, outside the 60-minute grace: 1.
        out = try await send("MarkNextDone")
        #expect(out.contains("string \"\(stretch)\""))
        #expect(out.contains("int32 1"))
        out = try await send("MarkDone", ["string:\(walk)"])
        #expect(out.contains("int32 2"), "09:00 done at about 08:30 is on time")
        out = try await send("Undo", ["string:\(walk)"])
        #expect(!out.contains("int32"), "Undo returns nothing: \(out)")
        #expect(try swift.tasks().first { $0.string("id") == walk }?.bool("done") == false)

        // Snooze: max(now, 09:00) + 15 min; again from the new effective time: 09:30.
        out = try await send("Snooze", ["string:\(walk)"])
        #expect(out.contains("int64 \(unix("2026-03-02T09:15:00+01:00"))"), "\(out)")
        out = try await send("SnoozeNext")
        #expect(out.contains("string \"\(walk)\""))
        #expect(out.contains("int64 \(unix("2026-03-02T09:30:00+01:00"))"), "\(out)")

        out = try await send("ListTasks", ["string:tomorrow"])
        #expect(Self.hasEntry(out, "id", "string \"\(plants)\""))
        _ = try await send("DeleteTask", ["string:\(plants)"])
        #expect(try swift.tasks("tomorrow").isEmpty)

        out = try await send("ListTasks", ["string:"])
        #expect(Self.hasEntry(out, "effective_time", "string \"09:30\""))
        #expect(Self.hasEntry(out, "snoozed_until", "int64 \(unix("2026-03-02T09:30:00+01:00"))"))
        today = try swift.tasks()
        #expect(today.map { $0.string("id") } == [stretch, walk])
        #expect(today.map { $0.int("xp") } == [1, 0])

        out = try await send("GetTimeline")
        #expect(out.components(separatedBy: "string \"next_date\"").count - 1 == 24)
        out = try await send("GetPet")
        #expect(Self.hasEntry(out, "stage_xp", "int32 1"))
        #expect(Self.hasEntry(out, "stage_name", "string \"Tadpole\""))

        // Properties: Get, Set (every setting), GetAll.
        let properties = "org.freedesktop.DBus.Properties"
        out = try await send("\(properties).Get", ["string:\(PetDaemon.interface)", "string:ResetTime"])
        #expect(out.contains("string \"00:00\""))
        _ = try await send(
            "\(properties).Set", ["string:\(PetDaemon.interface)", "string:ResetTime", "variant:string:04:30"])
        _ = try await send(
            "\(properties).Set", ["string:\(PetDaemon.interface)", "string:GraceMinutes", "variant:uint32:30"])
        _ = try await send(
            "\(properties).Set", ["string:\(PetDaemon.interface)", "string:SnoozeMinutes", "variant:int32:20"])
        _ = try await send(
            "\(properties).Set", ["string:\(PetDaemon.interface)", "string:Rollover", "variant:boolean:true"])
        out = try await send("\(properties).GetAll", ["string:\(PetDaemon.interface)"])
        #expect(Self.hasEntry(out, "ResetTime", "string \"04:30\""))
        #expect(Self.hasEntry(out, "GraceMinutes", "uint32 30"))
        #expect(Self.hasEntry(out, "SnoozeMinutes", "uint32 20"))
        #expect(Self.hasEntry(out, "Rollover", "boolean true"))
        #expect(Self.hasEntry(out, "WidgetEntry", "array ["))
        out = try await send("\(properties).Get", ["string:\(PetDaemon.interface)", "string:WidgetEntry"])
        #expect(Self.hasEntry(out, "day_key", "string \"2026-03-02\""))

        // The standard interfaces.
        out = try await send("org.freedesktop.DBus.Introspectable.Introspect")
        #expect(out.contains("<interface name=\"io.petprogress.PetProgress1\">"))
        _ = try await send("org.freedesktop.DBus.Peer.Ping")
        out = try await send("org.freedesktop.DBus.Peer.GetMachineId")
        #expect(out.contains("string \""))

        // Every mutation above counted once (3 adds, update, 2 done, undo, 2 snoozes, delete, 4 settings).
        #expect(try swift.status().int("mutations") == 14)
    }

    @Test("busctl: calls with JSON replies, get-property, set-property, introspect")
    func busctl() async throws {
        let world = try await World("busctl")
        defer { world.close() }
        _ = try await world.daemon(now: Self.now)
        func json(_ result: ToolResult) throws -> [String: Any] {
            #expect(result.status == 0, "\(result)")
            let object = try JSONSerialization.jsonObject(with: Data(result.output.utf8))
            return try #require(object as? [String: Any], "\(result.output)")
        }
        var reply = try json(try await world.busctlCall("AddTask", ["ss", "Feed the cat", "08:15"]))
        #expect(reply["type"] as? String == "s")
        let id = try #require((reply["data"] as? [Any])?.first as? String)
        #expect(id.hasPrefix("20260302-"))
        reply = try json(try await world.busctlCall("MarkDone", ["s", id]))
        #expect((reply["data"] as? [Any])?.first as? Int == 2)
        reply = try json(try await world.busctlCall("GetPet"))
        #expect(reply["type"] as? String == "a{sv}")
        let pet = try #require((reply["data"] as? [Any])?.first as? [String: Any])
        #expect((pet["stage_xp"] as? [String: Any])?["data"] as? Int == 2)
        #expect((pet["stage_count"] as? [String: Any])?["data"] as? Int == 20)
        reply = try json(try await world.busctlCall("ListTasks", ["s", ""]))
        let tasks = try #require((reply["data"] as? [Any])?.first as? [[String: Any]])
        #expect(tasks.count == 1)
        #expect((tasks.first?["done"] as? [String: Any])?["data"] as? Bool == true)

        var result = try await world.busctl([
            "set-property", PetDaemon.name, PetDaemon.path, PetDaemon.interface, "GraceMinutes", "u", "45",
        ])
        #expect(result.status == 0, "\(result)")
        result = try await world.busctl([
            "set-property", PetDaemon.name, PetDaemon.path, PetDaemon.interface, "ResetTime", "s", "05:00",
        ])
        #expect(result.status == 0, "\(result)")
        result = try await world.busctl([
            "get-property", PetDaemon.name, PetDaemon.path, PetDaemon.interface, "GraceMinutes", "ResetTime",
        ])
        #expect(result.output.split(separator: "\n") == ["u 45", "s \"05:00\""], "\(result)")
        result = try await world.busctl(["introspect", PetDaemon.name, PetDaemon.path, PetDaemon.interface])
        #expect(result.status == 0, "\(result)")
        for member in [".MarkNextDone", ".EntryChanged", ".WidgetEntry", ".GraceMinutes"] {
            #expect(result.output.contains(member), "\(member)")
        }
        // An error reply: busctl prints the daemon's sentence and fails.
        result = try await world.busctlCall("MarkDone", ["s", id])
        #expect(result.status != 0)
        #expect(result.errors.lowercased().contains("already"), "\(result)")
    }

    @Test("gdbus: calls, an int32 setting (<30>), properties and introspection")
    func gdbus() async throws {
        let world = try await World("gdbus")
        defer { world.close() }
        _ = try await world.daemon(now: Self.now)
        let swift = try world.client()
        var result = try await world.gdbusCall("AddTask", ["Tea", "08:45"])
        #expect(result.status == 0, "\(result)")
        #expect(result.output.hasPrefix("('20260302-"), "\(result)")
        result = try await world.gdbusCall("MarkNextDone")
        #expect(result.output.contains(", 2)"), "\(result)")
        result = try await world.gdbusCall("GetWidgetEntry")
        #expect(result.output.contains("'tasks_done': <1>"), "\(result)")
        #expect(result.output.contains("'next_task_id': <''>"), "\(result)")
        // gdbus sends a plain number as an int32 variant: accepted for the minute settings.
        result = try await world.gdbusCall(
            "org.freedesktop.DBus.Properties.Set", [PetDaemon.interface, "GraceMinutes", "<30>"])
        #expect(result.status == 0, "\(result)")
        result = try await world.gdbusCall(
            "org.freedesktop.DBus.Properties.Set", [PetDaemon.interface, "SnoozeMinutes", "<uint32 25>"])
        #expect(result.status == 0, "\(result)")
        result = try await world.gdbusCall(
            "org.freedesktop.DBus.Properties.Set", [PetDaemon.interface, "Rollover", "<true>"])
        #expect(result.status == 0, "\(result)")
        result = try await world.gdbusCall(
            "org.freedesktop.DBus.Properties.Get", [PetDaemon.interface, "GraceMinutes"])
        #expect(result.output.trimmingCharacters(in: .whitespacesAndNewlines) == "(<uint32 30>,)", "\(result)")
        #expect(try swift.property("SnoozeMinutes") == .uint32(25))
        #expect(try swift.property("Rollover") == .bool(true))
        result = try await world.sandbox.run(
            "gdbus",
            ["introspect", "--address", world.bus.address, "--dest", PetDaemon.name, "--object-path", PetDaemon.path],
            environment: world.bus.environment)
        #expect(result.status == 0, "\(result)")
        #expect(result.output.contains("interface io.petprogress.PetProgress1"))
        #expect(result.output.contains("MarkDone(in  s id,"), "\(result.output)")
        #expect(result.output.contains("readwrite u GraceMinutes"), "\(result.output)")
    }

    @Test("DBusKit's client: typed calls and every setting")
    func swiftClient() async throws {
        let world = try await World("swift")
        defer { world.close() }
        _ = try await world.daemon(now: Self.now)
        let client = try world.client()
        let early = try client.addTask("Early bird", "06:00")
        let soon = try client.addTask("Soon", "09:00")
        let later = try client.addTask("Later", "12:00")
        #expect(try client.markDone(early) == 1, "150 minutes late")
        #expect(try client.markDone(later) == 1, "210 minutes early")
        #expect(try client.markDone(soon) == 2)
        #expect(try client.pet().int("stage_xp") == 4)
        try client.call("Undo", [.string(later)])
        #expect(try client.pet().int("stage_xp") == 3)
        let entry = try client.entry()
        #expect(entry.int("tasks_done") == 2)
        #expect(entry.int("tasks_total") == 3)
        #expect(entry.string("next_task_id") == later)
        #expect(entry.string("next_task_time") == "12:00")
        #expect(entry.int("date") == unix("2026-03-02T08:00:00+01:00"))
        #expect(entry.int("next_date") == unix("2026-03-02T09:00:00+01:00"))
        #expect(entry.int("stage_xp") == 0, "the pet part is the 08:00 snapshot")
        #expect(
            entry.string("accessible_text")
                == "Tadpole, stage 1 of 20, 0 of 10 XP. 2 of 3 tasks done. Next: 12:00 Later.")
        let timeline = try #require(try client.call("GetTimeline").first?.vardictArrayValue)
        #expect(timeline.count == 24)
        #expect(timeline.first?.int("date") == unix("2026-03-02T09:00:00+01:00"))
        #expect(timeline.first?.int("stage_xp") == 3, "the timeline's pet part is the live state")
        #expect(timeline.last?.int("date") == unix("2026-03-03T08:00:00+01:00"))
        #expect(timeline.last?.string("day_key") == "2026-03-03")
        #expect(try client.property("WidgetEntry").vardictValue == entry)
        try client.setProperty("ResetTime", .string("23:15"))
        try client.setProperty("GraceMinutes", .int32(0))
        try client.setProperty("SnoozeMinutes", .uint32(240))
        try client.setProperty("Rollover", .bool(true))
        #expect(try client.property("ResetTime") == .string("23:15"))
        #expect(try client.property("GraceMinutes") == .uint32(0))
        #expect(try client.property("SnoozeMinutes") == .uint32(240))
        #expect(try client.property("Rollover") == .bool(true))
        let status = try client.status()
        #expect(status.string("version")?.isEmpty == false)
        #expect(status.string("last_closed_day") == "")
        #expect(status["problems"] == .array(elementSignature: "s", []))
        #expect(status.int("mutations") == 11)
    }
}
