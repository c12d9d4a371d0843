import DBusKit
import Foundation
import TestSupport
import Testing

/// A live closeout with rollover and recurring templates, undo across an evolution, and the
/// timeline's projection of tomorrow (petprogress(7) §2.1, §3, §3.1, §3.2).
@Suite("Closeout and rules")
struct CloseoutTests {
    @Test("at a live closeout: misses charged, rollover copies, the template's new instance, tomorrow's task moved in")
    func rolloverAndTemplates() async throws {
        let world = try await World("rollover")
        defer { world.close() }
        let recorder = try SignalRecorder(bus: world.bus)
        defer { recorder.stop() }
        // 30×: midnight is 8 real seconds away; the set-up runs off the pool so it surely comes first.
        let (template, instance, carry, planned, countBefore) = try await offPool { [world] in
            _ = try PetDaemon(sandbox: world.sandbox, bus: world.bus, now: "2026-03-02T23:56:00+01:00", timeScale: 30)
            let client = try world.client()
            try client.setProperty("Rollover", .bool(true))
            let template = try client.addTaskFor("Daily", "07:00", day: "", repeat: "daily")
            let instance = try client.tasks().first { $0.string("template_id") == template }
            let carry = try client.addTask("Carry me", "22:00")
            let planned = try client.addTaskFor("Planned", "10:00", day: "tomorrow")
            _ = try client.addTaskFor("Weekend", "09:00", day: "", repeat: "sat,sun")
            return (template, instance, carry, planned, try client.tasks().count)
        }
        let client = try world.client()
        let first = try #require(instance)
        #expect(first.string("repeat") == "daily")
        #expect(countBefore == 2, "a sat,sun template has no instance on a Monday")
        #expect(await poll(timeout: .seconds(20)) { (try? client.status().string("open_day")) == "2026-03-03" })

        let closed = try client.tasks("2026-03-02")
        #expect(closed.map { $0.string("title") } == ["Daily", "Carry me"])
        #expect(closed.allSatisfy { $0.bool("done") == false })
        let open = try client.tasks()
        #expect(Set(open.compactMap { $0.string("title") }) == ["Daily", "Planned", "Carry me"])
        let rolled = try #require(open.first { $0.string("title") == "Carry me" })
        #expect(rolled.string("id") != carry, "a fresh copy, with a new id")
        #expect(rolled.string("id")?.hasPrefix("20260303-") == true)
        #expect(rolled.string("time") == "22:00")
        #expect(rolled.int("snoozed_until") == 0)
        let newInstance = try #require(open.first { $0.string("title") == "Daily" })
        #expect(newInstance.string("template_id") == template)
        #expect(newInstance.string("id") != first.string("id"))
        #expect(open.first { $0.string("title") == "Planned" }?.string("id") == planned)
        #expect(try client.pet().int("stage_xp") == 0, "two misses at Tadpole 0 clamp at 0")
        // The open day's tasks changed twice (the template's instance, Carry me) and at the closeout;
        // a setting, a task for tomorrow and a template with no instance today are not its tasks.
        #expect(recorder.count("TasksChanged") == 3)
    }

    @Test("undo replays the day's awards: it can reverse an evolution; a double done never counts twice")
    func undoAcrossEvolution() async throws {
        let world = try await World("undo")
        defer { world.close() }
        _ = try await world.daemon(now: "2026-03-02T08:30:00+01:00")
        let client = try world.client()
        var ids: [String] = []
        for time in ["08:00", "08:10", "08:20", "08:30", "08:40"] {
            let id = try client.addTask("T \(time)", time)
            #expect(try client.markDone(id) == 2)
            ids.append(id)
        }
        var pet = try client.pet()
        #expect(pet.int("stage_index") == 1, "10 XP: Tadpole → Minnow")
        #expect(pet.int("stage_xp") == 0)
        #expect(pet.string("stage_name") == "Minnow")
        #expect(pet.int("threshold") == 20)
        #expect(client.errorName("MarkDone", [.string(ids[4])]) == "io.petprogress.PetProgress1.Error.AlreadyDone")
        try client.call("Undo", [.string(ids[2])])
        pet = try client.pet()
        #expect(pet.int("stage_index") == 0)
        #expect(pet.int("stage_xp") == 8)
        #expect(pet.double("progress") == 0.8)
        #expect(try client.markDone(ids[2]) == 2)
        pet = try client.pet()
        #expect(pet.int("stage_index") == 1)
        #expect(pet.int("stage_xp") == 0)
        #expect(try client.status().int("mutations") == 12)
        let seqs = try client.tasks().compactMap { $0["completed_seq"]?.uint64Value }
        #expect(Set(seqs).count == 5, "each completion has its own sequence number: \(seqs)")
    }

    @Test("the timeline's ticks in the next day show its tasks added in advance plus projected instances, none done")
    func timelineProjectsTomorrow() async throws {
        let world = try await World("timeline")
        defer { world.close() }
        _ = try await world.daemon(now: "2026-03-02T08:30:00+01:00")
        let client = try world.client()
        _ = try client.addTaskFor("Daily", "07:00", day: "", repeat: "daily")
        _ = try client.addTaskFor("Tuesdays", "12:00", day: "tomorrow", repeat: "tue")
        _ = try client.addTaskFor("Planned", "10:00", day: "tomorrow")
        _ = try client.markDone(try client.addTask("Now", "08:30"))
        let timeline = try #require(try client.call("GetTimeline").first?.vardictArrayValue)
        #expect(timeline.count == 24)
        let dates = timeline.compactMap { $0.int("date") }
        #expect(dates == (0..<24).map { unix("2026-03-02T09:00:00+01:00") + Int64($0) * 3600 })
        for entry in timeline {
            #expect(entry.int("stage_xp") == 2, "the live pet, no closeout projected")
            if entry.string("day_key") == "2026-03-02" {
                #expect(entry.int("tasks_total") == 2)
                #expect(entry.int("tasks_done") == 1)
            } else {
                #expect(entry.string("day_key") == "2026-03-03")
                #expect(entry.int("tasks_total") == 3, "Daily, Tuesdays and Planned")
                #expect(entry.int("tasks_done") == 0)
            }
        }
        #expect(timeline.filter { $0.string("day_key") == "2026-03-03" }.count == 9)
        #expect(
            try client.tasks("tomorrow").map { $0.string("title") } == ["Planned"],
            "no projected instances in ListTasks(\"tomorrow\")")
    }

    @Test(
        "editing a template changes future days and today's untouched instance; deleting it stops future instances, today's stays"
    )
    func templateEditAndDelete() async throws {
        let world = try await World("templates")
        defer { world.close() }
        _ = try await world.daemon(now: "2026-03-02T08:30:00+01:00")
        let client = try world.client()
        let template = try client.addTaskFor("Stretch", "07:00", day: "", repeat: "daily")
        let instance = try #require(try client.tasks().first?.string("id"))
        try client.call("UpdateTask", [.string(template), .string("Long stretch"), .string("07:30")])
        #expect(try client.tasks().first?.string("title") == "Long stretch", "today's untouched instance follows")
        #expect(try client.tasks().first?.string("time") == "07:30")
        let templates = try #require(try client.call("ListTemplates").first?.vardictArrayValue)
        #expect(templates.map { $0.string("title") } == ["Long stretch"])
        #expect(templates.map { $0.string("time") } == ["07:30"])
        var timeline = try #require(try client.call("GetTimeline").first?.vardictArrayValue)
        let tomorrow = try #require(timeline.first { $0.string("day_key") == "2026-03-03" })
        let upcoming = tomorrow["upcoming"]?.vardictArrayValue ?? []
        #expect(upcoming.map { $0.string("title") } == ["Long stretch"])
        #expect(upcoming.map { $0.string("time") } == ["07:30"])

        try client.call("DeleteTask", [.string(template)])
        #expect(try client.call("ListTemplates").first?.vardictArrayValue?.isEmpty == true)
        #expect(try client.tasks().map { $0.string("id") } == [instance], "today's instance stays")
        timeline = try #require(try client.call("GetTimeline").first?.vardictArrayValue)
        #expect(timeline.filter { $0.string("day_key") == "2026-03-03" }.allSatisfy { $0.int("tasks_total") == 0 })
        let error = "io.petprogress.PetProgress1.Error."
        #expect(client.errorName("DeleteTask", [.string(template)]) == error + "NotFound")
        #expect(client.errorName("MarkDone", [.string(template)]) == error + "NotFound")
        #expect(try client.markDone(instance) == 1, "07:00 done at 08:30: 90 minutes late")
    }

    @Test("SIGINT also stops the daemon cleanly (exit 0)")
    func sigint() async throws {
        let world = try await World("sigint")
        defer { world.close() }
        let daemon = try await world.daemon(now: "2026-03-02T08:30:00+01:00")
        _ = try world.client().addTask("Kept", "09:00")
        daemon.process.send(SIGINT)
        #expect(await daemon.process.waitExit() == 0)
        let state = try String(contentsOfFile: daemon.dataDirectory + "/state.json", encoding: .utf8)
        #expect(state.contains("Kept"))
    }
}

extension Dictionary where Key == String, Value == DBusValue {
    func double(_ key: String) -> Double? { self[key]?.doubleValue }
}
