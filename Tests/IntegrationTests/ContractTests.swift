import DBusKit
import Foundation
import PetBus
import PetCore
import TestSupport
import Testing

/// PetBus's `PetClient` decodes every member's reply the way a raw client reads it: each reply is
/// fetched with `busctl --json=short` and compared, key by literal key, with PetClient's typed
/// values — so the shared library cannot confirm itself.
@Suite("Contract")
struct ContractTests {
    /// A busctl JSON value (`{"type": …, "data": …}`) as a comparable string, `type:data`, the data
    /// read as its D-Bus type says.
    static func flat(_ value: Any?) -> String {
        guard let node = value as? [String: Any], let type = node["type"] as? String else { return "?" }
        let data = node["data"]
        switch type {
        case "s": return "s:\"\(data as? String ?? "?")\""
        case "b": return "b:\((data as? Bool).map(String.init) ?? "?")"
        case "d": return "d:\((data as? NSNumber).map { number($0) } ?? "?")"
        case "as": return "as:[\((data as? [String] ?? []).map { "\"\($0)\"" }.joined(separator: ","))]"
        default: return "\(type):\((data as? NSNumber).map { "\($0.int64Value)" } ?? "?")"
        }
    }

    static func number(_ n: NSNumber) -> String { "\(n.doubleValue)" }

    /// The first reply value of a busctl JSON answer.
    static func reply(_ result: ToolResult) throws -> Any {
        let json = try JSONSerialization.jsonObject(with: Data(result.output.utf8))
        guard let top = json as? [String: Any], let data = top["data"] as? [Any], let first = data.first else {
            throw HarnessError("busctl printed no reply: \(result)")
        }
        return first
    }

    // The contract's keys, spelled here independently of PetBus.

    static func pet(_ p: PetView) -> [String: String] {
        [
            "stage_index": "i:\(p.stageIndex)", "stage_count": "i:\(p.stageCount)",
            "stage_name": "s:\"\(p.stageName)\"", "stage_xp": "i:\(p.stageXP)", "threshold": "i:\(p.threshold)",
            "progress": "d:\(p.progress)", "is_final": "b:\(p.isFinal)",
            "icon_name": "s:\"\(p.iconName)\"", "icon_path": "s:\"\(p.iconPath)\"", "glyph": "s:\"\(p.glyph)\"",
        ]
    }

    static func task(_ t: TaskRecord) -> [String: String] {
        [
            "id": "s:\"\(t.id)\"", "title": "s:\"\(t.title)\"", "time": "s:\"\(t.time)\"",
            "effective_time": "s:\"\(t.effectiveTime)\"", "day_key": "s:\"\(t.dayKey)\"", "done": "b:\(t.done)",
            "completed_at": "x:\(t.completedAt)", "completed_seq": "t:\(t.completedSeq)",
            "snoozed_until": "x:\(t.snoozedUntil)", "scheduled_at": "x:\(t.scheduledAt)", "overdue": "b:\(t.overdue)",
            "is_next": "b:\(t.isNext)", "due": "b:\(t.due)", "due_at": "x:\(t.dueAt)",
            "overdue_at": "x:\(t.overdueAt)",
            "xp": "i:\(t.xp)", "repeat": "s:\"\(t.repeatRule)\"", "template_id": "s:\"\(t.templateID)\"",
            "number": "i:\(t.number)",
        ]
    }

    static func entry(_ e: WidgetEntry) -> [String: String] {
        pet(e.pet).merging([
            "date": "x:\(e.date)", "next_date": "x:\(e.nextDate)", "day_key": "s:\"\(e.dayKey)\"",
            "tasks_done": "i:\(e.tasksDone)", "tasks_total": "i:\(e.tasksTotal)",
            "next_task_id": "s:\"\(e.nextTaskID)\"", "next_task_title": "s:\"\(e.nextTaskTitle)\"",
            "next_task_time": "s:\"\(e.nextTaskTime)\"", "next_task_overdue": "b:\(e.nextTaskOverdue)",
            "next_task_due": "b:\(e.nextTaskDue)",
            "rest_day": "b:\(e.restDay)", "accessible_text": "s:\"\(e.accessibleText)\"",
        ]) { $1 }
    }

    static func history(_ h: HistoryRecord) -> [String: String] {
        [
            "day_key": "s:\"\(h.dayKey)\"", "start": "x:\(h.start)", "end": "x:\(h.end)",
            "tasks_done": "i:\(h.tasksDone)", "tasks_total": "i:\(h.tasksTotal)", "rate": "d:\(h.rate)",
            "rest": "b:\(h.rest)", "away": "b:\(h.away)", "return": "b:\(h.returned)",
            "xp_change": "i:\(h.xpChange)", "daily_xp": "i:\(h.dailyXP)",
            "stage_index_open": "i:\(h.stageIndexOpen)", "stage_xp_open": "i:\(h.stageXPOpen)",
            "stage_index_close": "i:\(h.stageIndexClose)", "stage_xp_close": "i:\(h.stageXPClose)",
            "stage_name_close": "s:\"\(h.stageNameClose)\"",
        ]
    }

    /// Compares one `a{sv}` from busctl with the expected `type:data` strings; `records` names the
    /// `aa{sv}` keys, compared element by element.
    static func compare(
        _ raw: Any, _ expected: [String: String], records: [String: [[String: String]]] = [:], _ what: String
    ) {
        guard let dict = raw as? [String: Any] else {
            Issue.record("\(what): not an a{sv}: \(raw)")
            return
        }
        #expect(Set(dict.keys) == Set(expected.keys).union(records.keys), "\(what): keys")
        for (key, value) in expected { #expect(flat(dict[key]) == value, "\(what).\(key)") }
        for (key, list) in records {
            let items = (dict[key] as? [String: Any])?["data"] as? [Any] ?? []
            #expect(items.count == list.count, "\(what).\(key): count")
            for (item, record) in zip(items, list) { compare(item, record, "\(what).\(key)[]") }
        }
    }

    @Test("every reading member and property: busctl's JSON equals PetClient's decoding")
    func readingMembers() async throws {
        let world = try await World("contract")
        defer { world.close() }
        _ = try await world.daemon(now: "2026-03-02T10:30:00+01:00")
        let client = PetClient(connection: try Connection(address: world.bus.address), timeout: .seconds(20))
        let report = try client.addTask(title: "Write <report> & \"notes\"", time: "14:30")
        _ = try client.addTask(title: "Standup", time: "10:00")
        _ = try client.addTask(title: "Stretch", time: "18:00", day: "today", repeat: "weekdays")
        _ = try client.addTask(title: "Dentist 🦷", time: "09:30", day: "tomorrow", repeat: "")
        _ = try client.markNextDone()
        _ = try client.snooze(report)

        let entry = try client.widgetEntry()
        Self.compare(
            try Self.reply(try await world.busctlCall("GetWidgetEntry")), Self.entry(entry),
            records: ["upcoming": entry.upcoming.map(Self.task)], "GetWidgetEntry")
        let property = try client.widgetEntryProperty()
        #expect(property == entry)
        let got = try await world.busctl([
            "--json=short", "get-property", PetDaemon.name, PetDaemon.path, PetDaemon.interface, "WidgetEntry",
        ])
        Self.compare(
            (try JSONSerialization.jsonObject(with: Data(got.output.utf8)) as? [String: Any])?["data"] ?? [:],
            Self.entry(property), records: ["upcoming": property.upcoming.map(Self.task)], "WidgetEntry")

        let timeline = try client.timeline()
        let rawTimeline = try Self.reply(try await world.busctlCall("GetTimeline")) as? [Any] ?? []
        #expect(timeline.count == 24 && rawTimeline.count == 24)
        for (raw, e) in zip(rawTimeline, timeline) {
            Self.compare(raw, Self.entry(e), records: ["upcoming": e.upcoming.map(Self.task)], "GetTimeline[]")
        }

        Self.compare(try Self.reply(try await world.busctlCall("GetPet")), Self.pet(try client.pet()), "GetPet")

        for day in ["", "tomorrow", "2026-03-02"] {
            let tasks = try client.listTasks(day: day)
            #expect(!tasks.isEmpty)
            let raw = try Self.reply(try await world.busctlCall("ListTasks", ["s", day])) as? [Any] ?? []
            #expect(raw.count == tasks.count)
            for (item, task) in zip(raw, tasks) { Self.compare(item, Self.task(task), "ListTasks(\(day))") }
        }

        let templates = try client.listTemplates()
        let rawTemplates = try Self.reply(try await world.busctlCall("ListTemplates")) as? [Any] ?? []
        #expect(templates.count == 1 && rawTemplates.count == 1)
        for (item, t) in zip(rawTemplates, templates) {
            Self.compare(
                item,
                [
                    "id": "s:\"\(t.id)\"", "title": "s:\"\(t.title)\"", "time": "s:\"\(t.time)\"",
                    "repeat": "s:\"\(t.repeatRule)\"",
                ], "ListTemplates")
        }

        let status = try client.status()
        let rawStatus = try Self.reply(try await world.busctlCall("GetStatus"))
        // The daemon's clock moves between the two calls: within two seconds is the same reading.
        let rawNow = Self.flat((rawStatus as? [String: Any])?["now"])
        let nowAgrees = Int64(rawNow.dropFirst(2)).map { abs($0 - status.now) <= 2 } ?? false
        Self.compare(
            rawStatus,
            [
                "version": "s:\"\(status.version)\"", "data_dir": "s:\"\(status.dataDirectory)\"",
                "last_closed_day": "s:\"\(status.lastClosedDay)\"", "open_day": "s:\"\(status.openDay)\"",
                "open_day_end": "x:\(status.openDayEnd)",
                "mutations": "t:\(status.mutations)", "now": nowAgrees ? rawNow : "x:\(status.now)",
                "problems": "as:[\(status.problems.map { "\"\($0)\"" }.joined(separator: ","))]",
                "reply_cache_hits": "t:\(status.replyCacheHits)",
                "recovery": "s:\"\(status.recovery)\"", "recovery_source": "s:\"\(status.recoverySource)\"",
                "recovery_day": "s:\"\(status.recoveryDay)\"", "recovery_lost": "s:\"\(status.recoveryLost)\"",
                "recovery_at": "x:\(status.recoveryAt)",
                "problems_acknowledged": "b:\(status.problemsAcknowledged)",
                "next_day": "s:\"\(status.nextDay)\"",
                "time_scale": "d:\(status.timeScale)",
                "utc_offset": "i:\(status.utcOffset ?? -1)", "utc_offset_change": "x:\(status.utcOffsetChange)",
                "utc_offset_after": "i:\(status.utcOffsetAfter)",
                "clock_behind": "b:\(status.clockBehind)", "clock_day": "s:\"\(status.clockDay)\"",
                "clock_behind_snapshot": "s:\"\(status.clockBehindSnapshot)\"",
            ], "GetStatus")

        // The Today screen's three reads, sent together, answer as the three calls do one by one.
        let today = try client.today()
        let (livePet, dayTasks, panelEntry) = (
            try client.pet(), try client.listTasks(day: ""), try client.widgetEntry()
        )
        #expect(today.pet == livePet && today.tasks == dayTasks && today.entry == panelEntry)

        let settings = try client.settings()
        let all = try Self.reply(
            try await world.busctl([
                "--json=short", "call", PetDaemon.name, PetDaemon.path,
                "org.freedesktop.DBus.Properties", "GetAll", "s", PetDaemon.interface,
            ]))
        Self.compare(
            all,
            [
                "WidgetEntry": (all as? [String: Any]).map { Self.flat($0["WidgetEntry"]) } ?? "",
                "ResetTime": "s:\"\(settings.resetTime)\"", "GraceMinutes": "u:\(settings.graceMinutes)",
                "SnoozeMinutes": "u:\(settings.snoozeMinutes)", "Rollover": "b:\(settings.rollover)",
            ],
            records: [
                "Stages": try client.stages().stages.map { stage in
                    [
                        "name": "s:\"\(stage.name)\"", "threshold": "i:\(stage.threshold)",
                        "icon_name": "s:\"\(stage.iconName)\"", "glyph": "s:\"\(stage.glyph)\"",
                    ]
                }
            ], "GetAll")
    }

    @Test("rest days and history: busctl's JSON equals PetClient's decoding of ListRestDays and GetHistory")
    func restAndHistoryMembers() async throws {
        let world = try await World("contract-hist")
        defer { world.close() }
        let data = world.sandbox.path("data")
        let monday = try await world.daemon(dataDirectory: data, now: "2026-03-02T10:30:00+01:00")
        var client = PetClient(connection: try Connection(address: world.bus.address), timeout: .seconds(20))
        _ = try client.markDone(try client.addTask(title: "Write <report> & \"notes\"", time: "10:00"))
        _ = try client.addTask(title: "Stretch", time: "18:00", day: "today", repeat: "daily")
        _ = try client.snooze(try client.addTask(title: "Read 📖", time: "21:00"))
        try client.setRest(from: "today", to: "today", rest: true)
        #expect(await monday.stop() == 0)
        _ = try await world.daemon(dataDirectory: data, now: "2026-03-03T10:30:00+01:00")
        client = PetClient(connection: try Connection(address: world.bus.address), timeout: .seconds(20))
        try client.setRest(from: "tomorrow", to: "2026-03-06", rest: true)

        let rest = try client.listRestDays()
        #expect(rest == ["2026-03-04", "2026-03-05", "2026-03-06"])
        let rawRest = try Self.reply(try await world.busctlCall("ListRestDays"))
        #expect(
            Self.flat(["type": "as", "data": rawRest]) == "as:[\(rest.map { "\"\($0)\"" }.joined(separator: ","))]")

        let (records, more) = try client.history(from: "", to: "")
        #expect(records.count == 1 && !more)
        let record = try #require(records.first)
        #expect(record.rest && record.tasksTotal == 3 && record.tasks.count == 3)
        let raw = try JSONSerialization.jsonObject(
            with: Data(try await world.busctlCall("GetHistory", ["ss", "", ""]).output.utf8))
        let replies = (raw as? [String: Any])?["data"] as? [Any] ?? []
        #expect(replies.count == 2)
        #expect((replies.last as? Bool) == more)
        let rawRecords = replies.first as? [Any] ?? []
        #expect(rawRecords.count == records.count)
        for (item, h) in zip(rawRecords, records) {
            Self.compare(item, Self.history(h), records: ["tasks": h.tasks.map(Self.task)], "GetHistory")
        }
    }

    @Test("the contract's errors reach PetClient as typed rejections with the daemon's sentence")
    func errors() async throws {
        let world = try await World("contract-errors")
        defer { world.close() }
        _ = try await world.daemon(now: "2026-03-02T10:30:00+01:00")
        let client = PetClient(connection: try Connection(address: world.bus.address), timeout: .seconds(20))
        let cases: [(String, [String], () throws(PetClientError) -> Void)] = [
            ("MarkDone", ["s", "20990101-9"], { () throws(PetClientError) in _ = try client.markDone("20990101-9") }),
            ("MarkNextDone", [], { () throws(PetClientError) in _ = try client.markNextDone() }),
            (
                "AddTask", ["ss", "x", "25:00"],
                { () throws(PetClientError) in _ = try client.addTask(title: "x", time: "25:00") }
            ),
            ("Undo", ["s", "nope"], { () throws(PetClientError) in try client.undo("nope") }),
            (
                "SetRest", ["ssb", "2026-03-01", "today", "true"],
                { () throws(PetClientError) in try client.setRest(from: "2026-03-01", to: "today", rest: true) }
            ),
            (
                "GetHistory", ["ss", "today", ""],
                { () throws(PetClientError) in _ = try client.history(from: "today", to: "") }
            ),
        ]
        for (member, arguments, call) in cases {
            let raw = try await world.busctl(
                ["call", PetDaemon.name, PetDaemon.path, PetDaemon.interface, member] + arguments)
            #expect(raw.status != 0)
            do throws(PetClientError) {
                try call()
                Issue.record("\(member) succeeded")
            } catch {
                guard case .rejected(let rejection) = error else {
                    Issue.record("\(member): \(error)")
                    continue
                }
                // busctl prints the error's sentence; the name is the contract's.
                #expect(raw.errors.contains(rejection.message), "\(member): \(raw)")
                #expect(PetError(dbus: rejection.dbus) == rejection)
                #expect(rejection.dbus.name == "io.petprogress.PetProgress1.Error.\(rejection.kind.rawValue)")
            }
        }
    }
}
