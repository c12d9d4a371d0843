import DBusKit
import Foundation
import TestSupport
import Testing

/// `petctl import` and `Import` (petprogress(7) §5 "Import", §6.1, §7): export → import into an empty store
/// gives the same daemon and the same export; every refusal changes nothing.
@Suite("petctl import")
struct ImportTests {
    static let monday = "2026-03-02T09:00:00+01:00"
    static let wednesday = "2026-03-04T10:30:00+01:00"

    /// A daemon with closed days, a template, rest days, changed settings, tasks today and
    /// tomorrow, a snooze and completions; exported to `original.json`. Returns the exported path
    /// and the running daemon.
    static func build(_ world: World) async throws -> (String, PetDaemon) {
        let data = world.sandbox.path("a")
        let first = try await world.daemon(dataDirectory: data, now: monday)
        var client = try world.client()
        _ = try client.addTaskFor("Stretch", "08:00", day: "", repeat: "daily")
        _ = try client.markDone(try client.addTask(#"Write "report", then rest"#, "09:00"))
        _ = try client.addTask("Skipped", "12:00")
        try client.setRest("2026-03-07", "2026-03-08", true)
        try client.setProperty("GraceMinutes", .uint32(30))
        try client.setProperty("Rollover", .bool(true))
        #expect(await first.stop() == 0)
        let second = try await world.daemon(dataDirectory: data, now: wednesday)
        client = try world.client()
        let call = try client.addTask("Call Ann", "11:00")
        try client.call("Snooze", [.string(call)])
        _ = try client.addTask("Read 📚", "21:00")
        _ = try client.addTaskFor("Plan", "09:00", day: "tomorrow")
        let stretch = try #require(try client.tasks().first { $0.string("title") == "Stretch" }?.string("id"))
        _ = try client.markDone(stretch)
        let path = world.sandbox.path("original.json")
        _ = try await world.petctlOK(["export", "--output", path])
        return (path, second)
    }

    /// Everything the round trip must keep, read from the running daemon.
    static func observe(_ world: World) throws -> [String: DBusValue] {
        let client = try world.client()
        var seen: [String: DBusValue] = [
            "entry": .vardict(try client.entry()), "pet": .vardict(try client.pet()),
            "today": .array(elementSignature: "a{sv}", try client.tasks().map(DBusValue.vardict)),
            "tomorrow": .array(elementSignature: "a{sv}", try client.tasks("tomorrow").map(DBusValue.vardict)),
            "templates": try client.call("ListTemplates")[0], "rest": .stringArray(try client.restDays()),
        ]
        for name in ["ResetTime", "GraceMinutes", "SnoozeMinutes", "Rollover"] {
            seen[name] = try client.property(name)
        }
        var to = ""
        var page = 0
        while true {
            let (days, more) = try client.history("", to)
            seen["history\(page)"] = .array(elementSignature: "a{sv}", days.map(DBusValue.vardict))
            guard more, let first = days.first?.string("day_key") else { break }
            to = try #require(Self.dayBefore(first))
            page += 1
        }
        return seen
    }

    static func dayBefore(_ key: String) -> String? {
        let f = DateFormatter()
        f.dateFormat = "yyyy-MM-dd"
        f.timeZone = TimeZone(identifier: "UTC")
        return f.date(from: key).map { f.string(from: $0.addingTimeInterval(-86400)) }
    }

    /// Every file under `directory` (but the lock) with its bytes.
    static func files(_ directory: String) throws -> [String: Data] {
        var out: [String: Data] = [:]
        let names = FileManager.default.enumerator(atPath: directory)?.allObjects as? [String] ?? []
        for name in names where name != ".lock" {
            var isDirectory: ObjCBool = false
            _ = FileManager.default.fileExists(atPath: "\(directory)/\(name)", isDirectory: &isDirectory)
            out[name] =
                isDirectory.boolValue ? Data() : try Data(contentsOf: URL(fileURLWithPath: "\(directory)/\(name)"))
        }
        return out
    }

    static func json(_ path: String) throws -> [String: Any] {
        try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as? [String: Any])
    }

    @Test(
        "export → import into an empty store: the same entry, pet, tasks, templates, rest days, history and settings, and the same export"
    )
    func roundTrip() async throws {
        let world = try await World("import-trip")
        defer { world.close() }
        let (exported, original) = try await Self.build(world)
        let before = try Self.observe(world)
        // Tuesday closed while the daemon was stopped, with the repeating task's instance that
        // catch-up gives it (petprogress(7) §3.1): a record of its own.
        #expect(before["history0"]?.vardictArrayValue?.count == 2)
        #expect(await original.stop() == 0)

        _ = try await world.daemon(dataDirectory: world.sandbox.path("b"), now: Self.wednesday)
        _ = try await world.petctlOK(["import", exported, "--check"])
        let imported = try await world.petctlOK(["import", exported])
        #expect(imported.hasPrefix("Imported \(exported): 2 closed days (2026-03-02 to 2026-03-03)"), "\(imported)")
        #expect(imported.contains("import-backup-"))
        #expect(try Self.observe(world) == before)

        let again = world.sandbox.path("again.json")
        _ = try await world.petctlOK(["export", "--output", again])
        var a = try Self.json(exported)
        var b = try Self.json(again)
        #expect(a["exported_at"] != nil)
        a["exported_at"] = nil
        b["exported_at"] = nil
        #expect(NSDictionary(dictionary: a).isEqual(to: b))
    }

    @Test(
        "refusals change nothing: a store with data, a FIFO, a directory, too large, not JSON, a damaged field, a newer schema; --check neither"
    )
    func refusals() async throws {
        let world = try await World("import-refuse")
        defer { world.close() }
        let (exported, daemon) = try await Self.build(world)
        _ = daemon
        let data = world.sandbox.path("a")
        let before = try Self.files(data)

        var document = try Self.json(exported)
        func variant(_ name: String, _ change: (inout [String: Any]) -> Void) throws -> String {
            var copy = document
            change(&copy)
            let path = world.sandbox.path(name)
            try JSONSerialization.data(withJSONObject: copy).write(to: URL(fileURLWithPath: path))
            return path
        }
        let damaged = try variant("damaged.json") { d in
            var store = d["store"] as! [String: Any]
            var w = store["world"] as! [String: Any]
            var settings = w["settings"] as! [String: Any]
            settings["graceMinutes"] = "thirty"
            w["settings"] = settings
            store["world"] = w
            d["store"] = store
        }
        let newer = try variant("newer.json") { $0["schema"] = 3 }
        let newerStore = try variant("newer-store.json") { d in
            var store = d["store"] as! [String: Any]
            store["schema"] = 99
            d["store"] = store
        }
        let oldExport = try variant("schema1.json") { d in
            d["schema"] = 1
            d["store"] = nil
        }
        document = [:]
        let malformed = world.sandbox.path("malformed.json")
        try Data(#"{"format":"petprogress-export","schema":2,"store":{"#.utf8).write(
            to: URL(fileURLWithPath: malformed))
        let fifo = world.sandbox.path("fifo")
        #expect(mkfifo(fifo, 0o600) == 0)
        let huge = world.sandbox.path("huge.json")
        #expect(FileManager.default.createFile(atPath: huge, contents: nil))
        #expect(truncate(huge, 1 << 30 + 1) == 0)

        for (arguments, needle) in [
            (["import", exported], "already holds"),
            // A check reads the document whatever the store holds: a bad one is refused for itself.
            (["import", malformed, "--check"], "not valid JSON"),
            (["import", damaged, "--check"], "graceMinutes"),
            (["import", fifo, "--replace"], "regular file"),
            // A device that never ends: refused by its type, before a byte is read.
            (["import", "/dev/zero", "--replace"], "regular file"),
            (["import", world.sandbox.root, "--replace"], "regular file"),
            (["import", huge, "--replace"], "larger than 1024 MiB"),
            (["import", malformed, "--replace"], "not valid JSON"),
            (["import", damaged, "--replace"], "graceMinutes"),
            (["import", newer, "--replace"], "newer Pet Progress (export schema 3"),
            (["import", newerStore, "--replace"], "newer Pet Progress (schema 99"),
            (["import", oldExport, "--replace"], "schema 1"),
            (["import", world.sandbox.path("missing.json"), "--replace"], "No such file"),
        ] {
            let result = try await world.sandbox.run(
                try productBinary("petctl", override: "PETCTL"), arguments, environment: world.petctlEnvironment,
                timeout: .seconds(20))
            #expect(result.status == 1 && result.output.isEmpty, "\(arguments): \(result)")
            #expect(result.errors.hasPrefix("petctl: ") && result.errors.contains(needle), "\(arguments): \(result)")
            #expect(try Self.files(data) == before, "\(arguments) changed the data directory")
        }

        // --check with --replace reports and changes nothing; so does busctl's dry run with the
        // descriptor it passes from its own fd 3 (busctl cannot send an `h`: "UNIX file descriptor
        // not supported as type").
        let checked = try await world.petctlOK(["import", exported, "--check", "--replace"])
        #expect(
            checked.contains("can be imported") && checked.contains("Nothing was changed")
                && !checked.contains("--replace"), "\(checked)")
        // Without --replace, over a store that holds data, the file is still checked (exit 0), and
        // a line says a real import needs --replace — in every language.
        let unreplaced = try await world.petctlOK(["import", exported, "--check"])
        #expect(
            unreplaced.contains("can be imported")
                && unreplaced.contains(
                    "Pet Progress already holds data: importing the file needs --replace, which keeps the current data in a copy first.")
                && unreplaced.hasSuffix("Nothing was changed (--check).\n"), "\(unreplaced)")
        for (language, needle) in [("de_DE.UTF-8", "--replace"), ("fr_FR.UTF-8", "--replace")] {
            let localized = try await world.petctl(
                ["import", exported, "--check"], environment: ["LANG": language, "LC_ALL": language])
            #expect(
                localized.status == 0 && localized.output.contains(needle)
                    && !localized.output.contains("already holds data"), "\(language): \(localized)")
        }
        #expect(try Self.files(data) == before)
        let unreplacedBus = try await world.sandbox.run(
            "/bin/sh",
            [
                "-c",
                "exec gdbus call --address \"$1\" --dest \(PetDaemon.name) --object-path \(PetDaemon.path) --method \(PetDaemon.interface).Import 3 false true 3<\"$2\"",
                "sh", world.bus.address, exported,
            ], environment: world.bus.environment)
        #expect(
            unreplacedBus.status == 0 && unreplacedBus.output.contains("'needs_replace': <true>"), "\(unreplacedBus)")
        let gdbus = try await world.sandbox.run(
            "/bin/sh",
            [
                "-c",
                "exec gdbus call --address \"$1\" --dest \(PetDaemon.name) --object-path \(PetDaemon.path) --method \(PetDaemon.interface).Import 3 true true 3<\"$2\"",
                "sh", world.bus.address, exported,
            ], environment: world.bus.environment)
        #expect(
            gdbus.status == 0 && gdbus.output.contains("'imported': <false>")
                && gdbus.output.contains("'needs_replace': <false>"), "\(gdbus)")
        #expect(try Self.files(data) == before)

        // And with replace: the previous data kept inside the data directory, byte for byte.
        let replaced = try await world.petctlOK(["import", exported, "--replace"])
        let kept = try #require(
            replaced.split(separator: " ").last.map {
                String($0.trimmingCharacters(in: .whitespacesAndNewlines).dropLast())
            })
        #expect(kept.hasPrefix(data + "/import-backup-"), "\(replaced)")
        let keptFiles = try Self.files(kept)
        for (name, bytes) in before where name == "state.json" || name.hasPrefix("history-") {
            #expect(keptFiles[name] == bytes, "\(name)")
        }
    }
}
