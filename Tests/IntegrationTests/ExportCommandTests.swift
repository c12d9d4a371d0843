import Foundation
import TestSupport
import Testing

/// `petctl export --output` (petprogress(7) §7): an atomic 0600 file that never replaces an existing one
/// without `--force`; titles that need quoting survive CSV and JSON. (The content of a whole
/// month's export is checked in `HistoryCommandTests`.)
@Suite("petctl export")
struct ExportCommandTests {
    /// A closed day with titles that need escaping, and an open day with one task.
    static func world() async throws -> World {
        let world = try await World("ctl-export")
        let data = world.sandbox.path("data")
        do {
            let monday = try await world.daemon(dataDirectory: data, now: "2026-03-02T09:00:00+01:00")
            let client = try world.client()
            _ = try client.markDone(try client.addTask(#"Call "Bob", then Ann"#, "09:00"))
            _ = try client.addTask("Read\u{2028}slowly\\ 📚 שלום", "21:00")
            #expect(await monday.stop() == 0)
            _ = try await world.daemon(dataDirectory: data, now: "2026-03-03T09:00:00+01:00")
            _ = try world.client().addTask("Plan", "10:00")
        } catch {
            world.close()
            throw error
        }
        return world
    }

    /// The names in the sandbox directory that are not `keep`: a leftover temporary file shows here.
    static func strays(_ world: World, keep: Set<String>) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: world.sandbox.root).filter {
            !keep.contains($0) && $0.hasPrefix(".")
        }
    }

    @Test("--output writes a 0600 file; an existing file is kept without --force (exit 1) and replaced with it")
    func outputFile() async throws {
        let world = try await Self.world()
        defer { world.close() }
        let path = world.sandbox.path("backup.json")
        #expect(
            try await world.petctlOK(["export", "--output", path]) == "Exported 1 closed day (2 tasks) to \(path).\n")
        var info = stat()
        #expect(stat(path, &info) == 0 && info.st_mode & 0o777 == 0o600)
        let document = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as? [String: Any])
        let day = try #require((document["history"] as? [[String: Any]])?.first)
        let titles = (day["tasks"] as? [[String: Any]])?.compactMap { $0["title"] as? String }
        #expect(titles == [#"Call "Bob", then Ann"#, "Read\u{2028}slowly\\ 📚 שלום"])
        #expect(((document["today"] as? [String: Any])?["tasks"] as? [Any])?.count == 1)

        // Without --force: exit 1, one line, the file untouched (and the daemon not even asked).
        try Data("mine".utf8).write(to: URL(fileURLWithPath: path))
        for format in ["json", "csv"] {
            let refused = try await world.petctl(["export", "--format", format, "--output", path])
            #expect(refused.status == 1 && refused.output.isEmpty, "\(refused)")
            #expect(refused.errors == "petctl: \(path) already exists; add --force to replace it\n")
            #expect(try String(contentsOfFile: path, encoding: .utf8) == "mine")
        }
        // With --force: replaced, still 0600, no temporary file left behind.
        _ = try await world.petctlOK(["export", "--format", "csv", "--output", path, "--force"])
        #expect(try String(contentsOfFile: path, encoding: .utf8).hasPrefix("day_key,day_rest,"))
        #expect(stat(path, &info) == 0 && info.st_mode & 0o777 == 0o600)
        #expect(try Self.strays(world, keep: []) == [])

        // CSV quoting read back by Python's csv module.
        let script = """
            import csv, sys
            for row in csv.DictReader(open(sys.argv[1], newline='', encoding='utf-8'), strict=True):
                print(repr(row['title']), row['outcome'])
            """
        let parsed = try await world.sandbox.run("/usr/bin/python3", ["-c", script, path])
        #expect(
            parsed.output == "'Call \"Bob\", then Ann' on_time\n'Read\\u2028slowly\\\\ 📚 שלום' missed\n", "\(parsed)")
    }

    @Test("bad usage and unwritable places: one line, the documented status, nothing written")
    func failures() async throws {
        let world = try await Self.world()
        defer { world.close() }
        for (arguments, status, needle) in [
            (["export", "--format", "xml"], Int32(64), "xml"),
            (["export", "--force"], 64, "--output"),
            (["export", "--output", ""], 64, "--output"),
            (["export", "--output", world.sandbox.path("missing/x.json")], 1, "No such file or directory"),
            (["export", "--output", world.sandbox.root], 1, "already exists"),
            (["export", "--output", world.sandbox.root, "--force"], 1, "cannot write"),
        ] {
            let result = try await world.petctl(arguments)
            #expect(result.status == status && result.output.isEmpty, "\(arguments): \(result)")
            let lines = result.errors.split(separator: "\n")
            #expect(lines.count == 1 && lines[0].hasPrefix("petctl: ") && lines[0].contains(needle), "\(result)")
        }
        #expect(try Self.strays(world, keep: []) == [])
    }
}
