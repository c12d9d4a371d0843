import Foundation
import TestSupport
import Testing

/// `petctl tray` as hosts see it: a test watcher (sni-watcher) takes the item's registration and
/// reads it back; busctl and gdbus play the host's part on the item and its dbusmenu; what the
/// menu does is read back from the daemon. Literal names throughout (this is the contract).
@Suite("petctl tray")
struct TrayTests {
    /// A world with a daemon, a watcher and the tray, each stopped by PID at the end.
    final class Setup: @unchecked Sendable {
        let world: World
        var watcher: Spawned
        let tray: Spawned
        var item: String { "org.kde.StatusNotifierItem-\(tray.pid)-1" }

        init(
            _ label: String, now: String, timeScale: Double? = nil, tasks: [(String, String)] = [],
            environment extra: [String: String] = [:], ahead: String? = nil
        ) async throws {
            world = try await World(label)
            if let ahead {
                // As ClockBehindTests: the daemon ran at `now`, then with its clock ahead (a catch-up,
                // the state before it kept), then back at `now`.
                let data = world.sandbox.path("data")
                var daemon = try await world.daemon(dataDirectory: data, now: now)
                for (title, time) in tasks { _ = try world.client().addTask(title, time) }
                _ = await daemon.stop()
                daemon = try await world.daemon(dataDirectory: data, now: ahead)
                _ = try world.client().status()
                _ = await daemon.stop()
                _ = try await world.daemon(dataDirectory: data, now: now, timeScale: timeScale)
            } else {
                _ = try await world.daemon(now: now, timeScale: timeScale)
                for (title, time) in tasks { _ = try world.client().addTask(title, time) }
            }
            watcher = try Self.startWatcher(world, label: "watcher")
            tray = try world.sandbox.spawn(
                try productBinary("petctl", override: "PETCTL"), ["tray"],
                environment: world.petctlEnvironment.merging(extra) { $1 }, label: "tray")
        }

        /// `busctl` on the world's bus, blocking (for `poll`).
        func busctl(_ arguments: [String]) throws -> ToolResult { try TrayTests.busctl(world, arguments) }

        static func startWatcher(_ world: World, label: String) throws -> Spawned {
            let watcher = try world.sandbox.spawn(
                try productBinary("sni-watcher", override: "SNI_WATCHER"), [], environment: world.bus.environment,
                label: label)
            _ = watcher.waitForLine { $0.hasPrefix("READY") }
            return watcher
        }

        /// `busctl get-property` on the item (or the menu) as JSON: the type and the data.
        func property(_ name: String, menu: Bool = false) throws -> (type: String, data: Any?) {
            let result = try busctl(
                [
                    "--json=short", "get-property", item, menu ? "/MenuBar" : "/StatusNotifierItem",
                    menu ? "com.canonical.dbusmenu" : "org.kde.StatusNotifierItem", name,
                ])
            let object = try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [String: Any]
            return (object?["type"] as? String ?? "(\(result))", object?["data"])
        }

        /// `busctl call` on the menu, as JSON data.
        func menuCall(_ member: String, _ arguments: [String]) throws -> [Any] {
            let result = try busctl(
                ["--json=short", "call", "--", item, "/MenuBar", "com.canonical.dbusmenu", member] + arguments)
            let object = try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [String: Any]
            return object?["data"] as? [Any] ?? []
        }

        /// The layout's top-level items: id, label and children (from GetLayout 0 −1).
        func menuItems() throws -> [(id: Int, label: String, enabled: Bool, children: [(Int, String)])] {
            let data = try menuCall("GetLayout", ["iias", "0", "-1", "0"])
            guard let root = data.dropFirst().first as? [Any], let kids = root.last as? [Any] else { return [] }
            return kids.compactMap { kid in
                guard let variant = kid as? [String: Any], let item = variant["data"] as? [Any], item.count == 3,
                    let id = item[0] as? Int, let props = item[1] as? [String: Any]
                else { return nil }
                let label = (props["label"] as? [String: Any])?["data"] as? String ?? "-"
                let enabled = (props["enabled"] as? [String: Any])?["data"] as? Bool ?? true
                let children: [(Int, String)] = (item[2] as? [Any] ?? []).compactMap { child in
                    guard let c = (child as? [String: Any])?["data"] as? [Any], let cid = c.first as? Int else {
                        return nil
                    }
                    return (cid, ((c[1] as? [String: Any])?["label"] as? [String: Any])?["data"] as? String ?? "")
                }
                return (id, label, enabled, children)
            }
        }

        func click(_ id: Int) throws -> ToolResult {
            try busctl([
                "call", item, "/MenuBar", "com.canonical.dbusmenu", "Event", "isvu", "\(id)", "clicked", "s", "", "0",
            ])
        }

        func close() {
            tray.send(SIGTERM)
            _ = tray.waitExitBlocking()
            _ = watcher.killNow()
            world.close()
        }
    }

    @Test("registers with the watcher, which reads it back while registering; every property has its signature")
    func registrationAndProperties() async throws {
        let setup = try await Setup(
            "tray-props", now: "2026-03-02T10:30:00+01:00", tasks: [("Email", "15:00"), ("Stretch", "09:00")])
        defer { setup.close() }
        let registered = setup.watcher.waitForLine { $0.hasPrefix("registered") }
        #expect(
            registered?.hasPrefix("registered \(setup.item) :") == true, "\(setup.watcher.lines) \(setup.tray.errors)")
        #expect(setup.watcher.waitForLine { $0.hasPrefix("props") } == "props 19", "\(setup.watcher.lines)")
        let expected: [(String, String)] = [
            ("Category", "s"), ("Id", "s"), ("Title", "s"), ("Status", "s"), ("WindowId", "i"), ("IconName", "s"),
            ("IconPixmap", "a(iiay)"), ("IconThemePath", "s"), ("ToolTip", "(sa(iiay)ss)"), ("ItemIsMenu", "b"),
            ("Menu", "o"), ("XAyatanaLabel", "s"),
        ]
        var values: [String: Any] = [:]
        for (name, type) in expected {
            let (actual, data) = try setup.property(name)
            #expect(actual == type, "\(name)")
            values[name] = data
        }
        #expect(values["Category"] as? String == "ApplicationStatus")
        #expect((values["Id"] as? String).map { !$0.isEmpty } == true)
        #expect(values["Status"] as? String == "Active")
        #expect(values["WindowId"] as? Int == 0)
        #expect(values["ItemIsMenu"] as? Bool == false)
        #expect(values["Menu"] as? String == "/MenuBar")
        #expect(values["IconName"] as? String == "petprogress-tadpole")
        #expect(values["XAyatanaLabel"] as? String == "0/2")
        let petctl = try productBinary("petctl", override: "PETCTL")
        let prefix = URL(fileURLWithPath: petctl).resolvingSymlinksInPath().deletingLastPathComponent()
            .deletingLastPathComponent().path
        #expect(values["IconThemePath"] as? String == prefix + "/share/icons")
        // IconPixmap: 16, 22, 24, 32 and 48 px, each size × size × 4 bytes.
        let pixmaps = values["IconPixmap"] as? [[Any]] ?? []
        #expect(pixmaps.map { $0[0] as? Int ?? 0 } == [16, 22, 24, 32, 48])
        #expect(pixmaps.allSatisfy { ($0[2] as? [Any])?.count == ($0[0] as? Int ?? 0) * ($0[1] as? Int ?? 0) * 4 })
        let tip = values["ToolTip"] as? [Any] ?? []
        #expect(tip.count == 4 && (tip[2] as? String)?.hasPrefix("Tadpole · stage 1 of 20") == true, "\(tip)")
        #expect((tip.last as? String)?.contains("Next: 09:00 Stretch · overdue") == true, "\(tip)")
        for (name, type) in [("Version", "u"), ("TextDirection", "s"), ("Status", "s"), ("IconThemePath", "as")] {
            #expect(try setup.property(name, menu: true).type == type, "menu \(name)")
        }
        #expect(try setup.property("Version", menu: true).data as? Int == 3)
    }

    @Test("a new watcher (a panel restarted) gets the item registered again")
    func reRegisters() async throws {
        let setup = try await Setup("tray-rereg", now: "2026-03-02T10:30:00+01:00")
        defer { setup.close() }
        #expect(setup.watcher.waitForLine { $0.hasPrefix("registered") } != nil)
        _ = await setup.watcher.stop()
        setup.watcher = try Setup.startWatcher(setup.world, label: "watcher-2")
        let again = setup.watcher.waitForLine { $0.hasPrefix("registered") }
        #expect(again?.hasPrefix("registered \(setup.item) ") == true, "\(setup.watcher.lines) \(setup.tray.errors)")
    }

    /// Five tasks done on time make 10 XP: the live Tadpole evolves at once, the icon at 11:00.
    @Test("the icon and the pet line change only at the tick; the label follows the tasks at once")
    func hourlyRule() async throws {
        let setup = try await Setup(
            "tray-hourly", now: "2026-03-02T10:59:00+01:00", timeScale: 6,
            tasks: (0..<5).map { ("Task \($0)", "10:\(50 + $0)") })
        defer { setup.close() }
        #expect(setup.watcher.waitForLine { $0.hasPrefix("props") } != nil)
        let client = try setup.world.client()
        for task in try client.tasks() { _ = try client.markDone(task["id"]?.stringValue ?? "") }
        #expect(try client.pet()["stage_name"]?.stringValue == "Minnow", "the live pet evolved")
        #expect(await poll { (try? setup.property("XAyatanaLabel").data as? String) == "5/5" })
        #expect(try setup.property("IconName").data as? String == "petprogress-tadpole", "not before the tick")
        let tip = try setup.property("ToolTip").data as? [Any]
        #expect((tip?[2] as? String)?.hasPrefix("Tadpole") == true)
        #expect(
            await poll(timeout: .seconds(30)) {
                (try? setup.property("IconName").data as? String) == "petprogress-minnow"
            })
        #expect(
            (try setup.property("ToolTip").data as? [Any])?[2] as? String == "Minnow · stage 2 of 20 · 0/20 XP")
        #expect(setup.watcher.lines.contains("signal NewIcon"), "\(setup.watcher.lines)")
    }

    /// At 60× (a simulated minute per real second) with a 10-minute grace, the 13:20 task turns due
    /// 20 real seconds in and overdue 30 s in: the tray's one timer follows the daemon's clock at
    /// its time_scale (the flip rule of watch), with no signal, long before the 14:00 tick.
    @Test("the tooltip flips to due and overdue on the daemon's clock at its time_scale, without a signal")
    func flipsAtTimeScale() async throws {
        let setup = try await Setup("tray-flips", now: "2026-03-02T13:00:00+01:00", timeScale: 60)
        defer { setup.close() }
        #expect(setup.watcher.waitForLine { $0.hasPrefix("props") } != nil)
        let client = try setup.world.client()
        try client.setProperty("GraceMinutes", .uint32(10))
        _ = try client.addTask("Standup", "13:20")
        func tip() -> String { ((try? setup.property("ToolTip").data as? [Any])?.last as? String) ?? "" }
        #expect(await poll { tip().contains("Next: 13:20 Standup") }, "\(tip())")
        #expect(!tip().contains("· due") && !tip().contains("· overdue"), "\(tip())")
        #expect(await poll(timeout: .seconds(40)) { tip().contains("Next: 13:20 Standup · due") }, "\(tip())")
        #expect(try client.status().int("now") ?? 0 >= 1_772_454_000, "not before due_at")
        #expect(await poll(timeout: .seconds(40)) { tip().contains("Next: 13:20 Standup · overdue") }, "\(tip())")
        #expect(try client.status().int("now") ?? 0 < 1_772_456_400, "before the 14:00 tick")
    }

    @Test("the menu: GetLayout at depth −1 and 1, AboutToShow, Done, Snooze and Undo reach the daemon")
    func menuActions() async throws {
        let setup = try await Setup(
            "tray-menu", now: "2026-03-02T10:30:00+01:00",
            tasks: [("Email", "15:00"), ("Stretch", "16:00"), ("Call mum", "17:00"), ("Read", "18:00")])
        defer { setup.close() }
        #expect(setup.watcher.waitForLine { $0.hasPrefix("props") } != nil)
        var items = try setup.menuItems()
        #expect(items.first?.label == "Tadpole · stage 1 of 20 · 0/10 XP" && items.first?.enabled == false, "\(items)")
        let tasks = items.filter { !$0.children.isEmpty }
        #expect(tasks.map(\.label) == ["15:00 Email", "16:00 Stretch", "17:00 Call mum"], "the next three: \(items)")
        #expect(tasks.allSatisfy { $0.children.map(\.1) == ["_Done", "_Snooze"] })
        #expect(items.map(\.label).contains("_Open Today"))
        #expect(!items.map(\.label).contains { $0.hasPrefix("_Undo") }, "nothing to undo yet")
        // Depth 1: the tasks' submenus are not sent.
        let shallow = try setup.menuCall("GetLayout", ["iias", "0", "1", "0"])
        let kids = (shallow.last as? [Any])?.last as? [Any] ?? []
        #expect(
            !kids.isEmpty
                && kids.allSatisfy { ((($0 as? [String: Any])?["data"] as? [Any])?.last as? [Any])?.isEmpty == true })
        #expect(try setup.menuCall("AboutToShow", ["i", "0"]).first as? Bool == false)

        let client = try setup.world.client()
        let done = try #require(tasks.first?.children.first?.0)
        #expect(try setup.click(done).status == 0)
        #expect(
            await poll {
                (try? client.tasks().first { $0["title"]?.stringValue == "Email" }?["done"]?.boolValue) == true
            })
        #expect(await poll { (try? setup.menuItems().map(\.label).contains("_Undo “Email”")) == true })
        let snooze = try #require(tasks.dropFirst().first?.children.last?.0)
        #expect(try setup.click(snooze).status == 0)
        #expect(
            await poll {
                ((try? client.tasks().first { $0["title"]?.stringValue == "Stretch" }?["snoozed_until"]?.integerValue)
                    ?? 0) > 0
            })
        items = try setup.menuItems()
        let undo = try #require(items.first { $0.label == "_Undo “Email”" }?.id)
        #expect(try setup.click(undo).status == 0)
        #expect(
            await poll {
                (try? client.tasks().first { $0["title"]?.stringValue == "Email" }?["done"]?.boolValue) == false
            })
        // A stale id from an old layout is an error, not some other item's action.
        #expect(try setup.click(99_999).status != 0)
    }

    @Test("the clock that went back: one line under the pet, until acknowledged")
    func clockBehind() async throws {
        // Two days ahead with a task (the catch-up keeps the state before it), then back.
        let setup = try await Setup(
            "tray-clock", now: "2026-03-02T10:30:00+01:00", tasks: [("Email", "15:00")],
            ahead: "2026-03-04T10:30:00+01:00")
        defer { setup.close() }
        #expect(setup.watcher.waitForLine { $0.hasPrefix("props") } != nil)
        let line = "⚠ Clock behind 2026-03-04: petctl restore state-before-2026-03-02.json"
        var labels = try setup.menuItems().map(\.label)
        #expect(labels.dropFirst().first == line, "\(labels)")
        #expect(try setup.menuItems().first { $0.label == line }?.enabled == false)
        // Acknowledged (the days kept as closed): the line goes with the next read.
        let client = try setup.world.client()
        _ = try client.call("AcknowledgeProblems")
        _ = try client.addTask("Read", "18:00")  // TasksChanged: the tray reads again
        #expect(await poll { (try? setup.menuItems().map(\.label).contains(line)) == false })
        labels = try setup.menuItems().map(\.label)
        #expect(labels.contains("18:00 Read"), "\(labels)")
    }

    @Test("hostile titles show as typed: underscores escaped, markup inert, no item changed")
    func hostileTitles() async throws {
        let setup = try await Setup(
            "tray-hostile", now: "2026-03-02T10:30:00+01:00",
            tasks: [("_Done <b>bold</b> & __x", "15:00"), ("label\u{2028}enabled=false", "16:00")])
        defer { setup.close() }
        #expect(setup.watcher.waitForLine { $0.hasPrefix("props") } != nil)
        let items = try setup.menuItems()
        let labels = items.filter { !$0.children.isEmpty }.map(\.label)
        #expect(labels == ["15:00 __Done <b>bold</b> & ____x", "16:00 label\u{2028}enabled=false"], "\(items)")
        #expect(items.allSatisfy { $0.children.isEmpty || $0.enabled }, "a title disabled nothing")
        let tip = try setup.property("ToolTip").data as? [Any]
        #expect((tip?.last as? String)?.contains("_Done &lt;b&gt;bold&lt;/b&gt; &amp; __x") == true, "\(tip ?? [])")
    }

    @Test("the daemon stopping puts the pet to sleep without restarting it; started again, it is back")
    func daemonStopsAndStarts() async throws {
        let world = try await World.activating("tray-restart", now: "2026-03-02T10:30:00+01:00")
        defer { world.close() }
        let client = try world.client()
        _ = try client.addTask("Email", "15:00")  // activates it
        let watcher = try Setup.startWatcher(world, label: "watcher")
        let tray = try world.sandbox.spawn(
            try productBinary("petctl", override: "PETCTL"), ["tray"], environment: world.petctlEnvironment,
            label: "tray")
        let item = "org.kde.StatusNotifierItem-\(tray.pid)-1"
        func get(_ name: String) throws -> String {
            try Self.busctl(world, ["get-property", item, "/StatusNotifierItem", "org.kde.StatusNotifierItem", name])
                .output
        }
        #expect(watcher.waitForLine { $0.hasPrefix("props") } != nil)
        #expect(try get("XAyatanaLabel") == "s \"0/1\"\n")
        kill(try client.daemonPID(), SIGTERM)
        #expect(await poll { (try? get("Title")) == "s \"Pet Progress (not running)\"\n" })
        #expect(try get("IconName") == "s \"\"\n", "hosts draw the dimmed pixmap")
        try await Task.sleep(for: .seconds(1))
        let owned = try Self.busctl(
            world,
            [
                "call", "org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus", "NameHasOwner", "s",
                "io.petprogress.PetProgress1",
            ])
        #expect(owned.output == "b false\n", "the tray must not start a daemon the user stopped")
        // Start Pet Progress: D-Bus activation from the menu.
        let layout = try Self.busctl(
            world,
            [
                "--json=short", "call", "--", item, "/MenuBar", "com.canonical.dbusmenu", "GetLayout", "iias", "0",
                "-1", "0",
            ]
        ).output
        #expect(layout.contains("_Start Pet Progress"), "\(layout)")
        let start = try #require(Self.id(of: "_Start Pet Progress", in: layout))
        _ = try Self.busctl(
            world,
            [
                "call", item, "/MenuBar", "com.canonical.dbusmenu", "Event", "isvu", "\(start)", "clicked", "s", "",
                "0",
            ])
        #expect(await poll(timeout: .seconds(20)) { (try? get("XAyatanaLabel")) == "s \"0/1\"\n" })
        #expect(try get("IconName") == "s \"petprogress-tadpole\"\n")
        tray.send(SIGTERM)
        #expect(await tray.waitExit() == 0, "\(tray.errors)")
        _ = await watcher.stop()
    }

    @Test("SIGTERM, SIGINT and the bus going away end the tray with status 0")
    func exits() async throws {
        let world = try await World("tray-exit")
        defer { world.close() }
        for (index, signal) in [SIGTERM, SIGINT].enumerated() {
            let tray = try world.sandbox.spawn(
                try productBinary("petctl", override: "PETCTL"), ["tray"], environment: world.petctlEnvironment,
                label: "tray-\(index)")
            #expect(
                await poll {
                    (try? Self.busctl(world, ["status", "org.kde.StatusNotifierItem-\(tray.pid)-1"]).status) == 0
                })
            tray.send(signal)
            #expect(await tray.waitExit() == 0, "\(signal): \(tray.errors)")
        }
        let tray = try world.sandbox.spawn(
            try productBinary("petctl", override: "PETCTL"), ["tray"], environment: world.petctlEnvironment,
            label: "tray-bus")
        #expect(
            await poll {
                (try? Self.busctl(world, ["status", "org.kde.StatusNotifierItem-\(tray.pid)-1"]).status) == 0
            })
        world.bus.process.send(SIGTERM)
        #expect(await tray.waitExit() == 0, "\(tray.errors)")
    }

    @Test("no tray host: petctl tray says so on stderr after a moment and keeps waiting")
    func noHost() async throws {
        let world = try await World("tray-nohost")
        defer { world.close() }
        let tray = try world.sandbox.spawn(
            try productBinary("petctl", override: "PETCTL"), ["tray"], environment: world.petctlEnvironment,
            label: "tray-nohost")
        #expect(await poll(timeout: .seconds(20)) { tray.errors.contains("no tray host in this session yet") })
        #expect(tray.errors.split(separator: "\n").count == 1, "\(tray.errors)")
        #expect((try? Self.busctl(world, ["status", "org.kde.StatusNotifierItem-\(tray.pid)-1"]).status) == 0)
        tray.send(SIGTERM)
        #expect(await tray.waitExit() == 0, "\(tray.errors)")
    }

    @Test("one tray a session: a second petctl tray (its unit and its autostart entry both ran) exits 0 at once")
    func oneTrayASession() async throws {
        let world = try await World("tray-once")
        defer { world.close() }
        let petctl = try productBinary("petctl", override: "PETCTL")
        let first = try world.sandbox.spawn(petctl, ["tray"], environment: world.petctlEnvironment, label: "tray-1")
        #expect(
            await poll {
                (try? Self.busctl(world, ["status", "org.kde.StatusNotifierItem-\(first.pid)-1"]).status) == 0
            })
        let second = try world.sandbox.spawn(petctl, ["tray"], environment: world.petctlEnvironment, label: "tray-2")
        #expect(await second.waitExit() == 0)
        #expect(second.errors.contains("a tray is already running in this session"), "\(second.errors)")
        let names = try Self.busctl(world, ["list", "--no-legend", "--acquired"]).output
        #expect(
            names.split(separator: "\n").filter { $0.hasPrefix("org.kde.StatusNotifierItem-") }.count == 1, "\(names)")
        first.send(SIGTERM)
        #expect(await first.waitExit() == 0)
    }

    @Test(
        "in GNOME Shell with neither the extension on nor a tray watcher, one line says how to turn the extension on",
        arguments: [(2.0, true), (1.0, false)])
    func gnomeExtensionHint(state: Double, hinted: Bool) async throws {
        let world = try await World("tray-gnome-\(Int(state))")
        defer { world.close() }
        let shell = try world.sandbox.spawn(
            try productBinary("sni-watcher", override: "SNI_WATCHER"), ["--gnome-shell", "\(state)"],
            environment: world.bus.environment, label: "shell")
        defer { _ = shell.killNow() }
        _ = shell.waitForLine { $0.hasPrefix("READY") }
        let tray = try world.sandbox.spawn(
            try productBinary("petctl", override: "PETCTL"), ["tray"], environment: world.petctlEnvironment,
            label: "tray")
        #expect(shell.waitForLine { $0.hasPrefix("asked") } == "asked petprogress@petprogress.io", "\(shell.lines)")
        let line = "gnome-extensions enable petprogress@petprogress.io"
        if hinted {
            #expect(await poll { tray.errors.contains(line) }, "\(tray.errors)")
            #expect(tray.errors.split(separator: "\n").count == 1, "\(tray.errors)")
        } else {
            // The Shell's answer is handled before the tray reads anything else; a second's grace.
            try await Task.sleep(for: .seconds(1))
            #expect(!tray.errors.contains(line), "\(tray.errors)")
        }
        tray.send(SIGTERM)
        #expect(await tray.waitExit() == 0)
    }

    static func busctl(_ world: World, _ arguments: [String]) throws -> ToolResult {
        try world.sandbox.runBlocking(
            "busctl", ["--address=\(world.bus.address)", "--no-pager"] + arguments, environment: world.bus.environment)
    }

    /// The id of the item labelled `label` in a `busctl --json=short` GetLayout reply.
    static func id(of label: String, in json: String) -> Int? {
        guard let range = json.range(of: "\"\(label)\"") else { return nil }
        let before = json[..<range.lowerBound]
        guard let open = before.range(of: "[", options: .backwards) else { return nil }
        return Int(before[open.upperBound...].prefix { $0.isNumber })
    }
}
