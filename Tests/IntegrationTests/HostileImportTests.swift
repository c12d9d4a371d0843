import DBusKit
import Foundation
import TestSupport
import Testing

/// Imports that cost what they weigh (petprogress(7) §5 "Import", docs/RELIABILITY.md "Unbreakable
/// II"): hostile documents refused in well under a second by `petctl import` and by the bus's
/// `Import` (gdbus, which passes the descriptor), changing nothing; replaced data sets kept to the
/// latest three; the caller's descriptor left as it was.
@Suite("hostile imports", .serialized)
struct HostileImportTests {
    static func write(_ world: World, _ name: String, _ text: String) throws -> String {
        let path = world.sandbox.path(name)
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// The export with its open day's `end`, `key` and `start` changed by `change`.
    static func withOpenDay(_ text: String, _ change: (inout Int64, inout String, inout Int64) -> Void) throws -> String {
        let pattern = try NSRegularExpression(pattern: #""openDay":\{"end":(\d+),"key":"([0-9-]+)","start":(\d+)\}"#)
        let whole = NSRange(text.startIndex..., in: text)
        let match = try #require(pattern.firstMatch(in: text, range: whole), "no open day in the export")
        func group(_ i: Int) -> String { String(text[Range(match.range(at: i), in: text)!]) }
        var end = try #require(Int64(group(1)))
        var key = group(2)
        var start = try #require(Int64(group(3)))
        change(&end, &key, &start)
        let replaced = #""openDay":{"end":\#(end),"key":"\#(key)","start":\#(start)}"#
        return (text as NSString).replacingCharacters(in: match.range, with: replaced)
    }

    @Test(
        "repeated keys, nesting past 64, 52 KB of brackets and implausible open days: refused in well under a second by petctl and the bus, nothing changed"
    )
    func hostileDocuments() async throws {
        let world = try await World("import-hostile")
        defer { world.close() }
        let (exported, _) = try await ImportTests.build(world)
        let data = world.sandbox.path("a")
        let before = try ImportTests.files(data)
        let text = try String(contentsOfFile: exported, encoding: .utf8)
        #expect(text.hasPrefix("{") && text.contains(#""world":{"#))
        let day: Int64 = 86_400
        let documents: [(String, String, String)] = [
            ("repeated-top.json", #"{"schema":2,"# + text.dropFirst(), #"holds the key "schema" twice"#),
            (
                "repeated-inner.json", text.replacingOccurrences(of: #""world":{"#, with: #""world":{"zz":1,"zz":2,"#),
                #"holds the key "zz" twice"#
            ),
            (
                "depth65.json",
                #"{"format":"petprogress-export","x":"# + String(repeating: "[", count: 65)
                    + String(repeating: "]", count: 65) + "}", "deeper than 64"
            ),
            (
                "nested52k.json", String(repeating: "[", count: 26_000) + String(repeating: "]", count: 26_000),
                "deeper than 64"
            ),
            (
                "open-day-key.json",
                try Self.withOpenDay(text) { _, key, _ in
                    key = String(key.prefix(8)) + String(format: "%02d", Int(key.suffix(2))! + 3)
                },
                "does not start on that date"
            ),
            (
                "open-day-long.json", try Self.withOpenDay(text) { end, _, start in end = start + 100 * 3600 },
                "not 1 to 50 hours"
            ),
            (
                "open-day-short.json", try Self.withOpenDay(text) { end, _, start in end = start + 60 },
                "not 1 to 50 hours"
            ),
            (
                "open-day-future.json",
                try Self.withOpenDay(text) { end, key, start in
                    start += 3 * day
                    end += 3 * day
                    key = String(key.prefix(8)) + String(format: "%02d", Int(key.suffix(2))! + 3)
                }, "more than a day from now"
            ),
        ]
        let clock = ContinuousClock()
        var timings: [String] = []
        // The first start of the debug petctl and of gdbus reads their binaries from disk: once
        // before the clock runs, so the timings below are the refusal's, not the page cache's.
        _ = try await world.sandbox.run(
            try productBinary("petctl", override: "PETCTL"), ["status"], environment: world.petctlEnvironment,
            timeout: .seconds(20))
        _ = try await world.sandbox.run("/usr/bin/gdbus", ["help"], environment: world.bus.environment)
        for (name, document, needle) in documents {
            let path = try Self.write(world, name, document)
            var result: ToolResult?
            let byPetctl = try await clock.measure {
                result = try await world.sandbox.run(
                    try productBinary("petctl", override: "PETCTL"), ["import", path, "--replace"],
                    environment: world.petctlEnvironment, timeout: .seconds(20))
            }
            let refused = try #require(result)
            #expect(refused.status == 1 && refused.errors.contains(needle), "\(name): \(refused)")
            var bus: ToolResult?
            let byBus = try await clock.measure {
                bus = try await world.sandbox.run(
                    "/bin/sh",
                    [
                        "-c",
                        "exec gdbus call --address \"$1\" --dest io.petprogress.PetProgress1 --object-path /io/petprogress/PetProgress1 --method io.petprogress.PetProgress1.Import 3 true false 3<\"$2\"",
                        "sh", world.bus.address, path,
                    ], environment: world.bus.environment, timeout: .seconds(20))
            }
            let answer = try #require(bus)
            #expect(
                answer.status != 0 && answer.errors.contains("InvalidArgument") && answer.errors.contains(needle),
                "\(name): \(answer)")
            // "Well under a second" for the daemon (the quadratic parse took 43 s): the bound leaves
            // room for two process starts of a debug build beside make test's other suites.
            #expect(byPetctl < .seconds(2) && byBus < .seconds(2), "\(name): petctl \(byPetctl), bus \(byBus)")
            timings.append("\(name) \(document.utf8.count) B: petctl \(byPetctl), bus \(byBus)")
            #expect(try ImportTests.files(data) == before, "\(name) changed the data directory")
        }
        print("hostile imports:\n  " + timings.joined(separator: "\n  "))
    }

    @Test("five replacing imports leave the latest three replaced data sets")
    func backupsKept() async throws {
        let world = try await World("import-backups")
        defer { world.close() }
        let (exported, _) = try await ImportTests.build(world)
        let data = world.sandbox.path("a")
        var kept: [String] = []
        for _ in 0..<5 {
            let out = try await world.petctlOK(["import", exported, "--replace"])
            let path = try #require(
                out.split(separator: " ").last.map { String($0.trimmingCharacters(in: .whitespacesAndNewlines).dropLast()) })
            kept.append(URL(fileURLWithPath: path).lastPathComponent)
        }
        let names = try FileManager.default.contentsOfDirectory(atPath: data).filter { $0.hasPrefix("import-backup-") }
        #expect(Set(names) == Set(kept.suffix(3)), "kept \(names.sorted()), made \(kept)")
        #expect(!names.contains { $0.hasSuffix(".tmp") })
        #expect(!FileManager.default.fileExists(atPath: "\(data)/.import-staged"))
    }

    @Test("the caller's descriptor is only read: a pipe refused and a file imported keep their flags and offset")
    func descriptorUntouched() async throws {
        let world = try await World("import-fd")
        defer { world.close() }
        let (exported, _) = try await ImportTests.build(world)
        // fd 3 is a pipe, then the export opened at offset 7; after each call, its flags and
        // offset are read back in the same process that made them.
        let script = """
            import fcntl, os, subprocess, sys
            address, path = sys.argv[1], sys.argv[2]
            def call(fd):
                os.dup2(fd, 3)
                before = fcntl.fcntl(3, fcntl.F_GETFL)
                r = subprocess.run(["gdbus", "call", "--address", address, "--dest", "io.petprogress.PetProgress1",
                    "--object-path", "/io/petprogress/PetProgress1", "--method", "io.petprogress.PetProgress1.Import",
                    "3", "true", "true"], pass_fds=(3,), capture_output=True, text=True)
                after = fcntl.fcntl(3, fcntl.F_GETFL)
                print("flags", before == after, after & os.O_NONBLOCK == 0, r.returncode, (r.stdout + r.stderr).strip()[:200])
            r, w = os.pipe()
            call(r)
            f = os.open(path, os.O_RDONLY)
            os.lseek(f, 7, os.SEEK_SET)
            call(f)
            print("offset", os.lseek(f, 0, os.SEEK_CUR))
            """
        let result = try await world.sandbox.run(
            "/usr/bin/python3", ["-c", script, world.bus.address, exported], environment: world.bus.environment,
            timeout: .seconds(30))
        let lines = result.output.split(separator: "\n").map(String.init)
        #expect(lines.count == 3, "\(result)")
        #expect(lines.first?.hasPrefix("flags True True 1") == true && lines.first?.contains("regular file") == true, "\(result)")
        #expect(lines.dropFirst().first?.hasPrefix("flags True True 0") == true, "\(result)")
        #expect(lines.last == "offset 7", "\(result)")
    }
}
