import Foundation
import TestSupport
import Testing

/// `petprogressd`'s own command line: help, version, and bad usage (exit 64, EX_USAGE).
@Suite("Command line")
struct CommandLineTests {
    @Test("--help prints the usage, marks the testing aids, and exits 0")
    func help() async throws {
        let sandbox = try Sandbox("help")
        defer { sandbox.close() }
        let result = try await sandbox.run(try PetDaemon.binary(), ["--help"])
        #expect(result.status == 0, "\(result)")
        #expect(result.output.contains("Usage: petprogressd"))
        for option in ["--data-dir", "--expect-data-dir", "--now", "--time-scale", "--version"] {
            #expect(result.output.contains(option), "\(option)")
        }
        #expect(result.output.contains("FOR TESTS"), "petprogress(7) §9: --now/--time-scale say they are for tests")
    }

    @Test("--version prints one line and exits 0")
    func version() async throws {
        let sandbox = try Sandbox("version")
        defer { sandbox.close() }
        let result = try await sandbox.run(try PetDaemon.binary(), ["--version"])
        #expect(result.status == 0, "\(result)")
        let lines = result.output.split(separator: "\n")
        #expect(lines.count == 1)
        #expect(lines.first?.hasPrefix("petprogressd ") == true)
    }

    @Test(
        "a bad option or value exits 64 with one line on stderr, starting nothing",
        arguments: [
            ["--bogus"], ["--time-scale", "0"], ["--time-scale", "-3"], ["--time-scale", "fast"],
            ["--now", "yesterday"], ["--now", "2026-03-02T08:30:00"], ["--now"], ["--data-dir", ""], ["extra"],
            ["--time-scale", "1e300"], ["--time-scale", "2000000"], ["--time-scale", "inf"], ["--time-scale", "nan"],
            ["--expect-data-dir"], ["--expect-data-dir", "relative/petprogress"],
        ])
    func badUsage(arguments: [String]) async throws {
        let sandbox = try Sandbox("usage")
        defer { sandbox.close() }
        let data = sandbox.path("data")
        let result = try await sandbox.run(try PetDaemon.binary(), ["--data-dir", data] + arguments)
        #expect(result.status == 64, "\(arguments): \(result)")
        let lines = result.errors.split(separator: "\n", omittingEmptySubsequences: true)
        #expect(lines.count == 1, "\(arguments): \(result)")
        #expect(lines.first?.hasPrefix("petprogressd: ") == true)
        #expect(!FileManager.default.fileExists(atPath: data), "a usage error must not create the data directory")
    }

    @Test("no usable data directory or no bus: exit 1 with a clear last line, never a hang")
    func cannotStart() async throws {
        let sandbox = try Sandbox("nostart")
        defer { sandbox.close() }
        let binary = try PetDaemon.binary()
        let file = sandbox.path("a-file")
        try "x".write(toFile: file, atomically: true, encoding: .utf8)
        let cases: [([String], [String: String], String)] = [
            (["--now", "2026-03-02T08:30:00+01:00"], [:], "no data directory"),
            (["--data-dir", file], ["DBUS_SESSION_BUS_ADDRESS": "unix:path=\(sandbox.path("no-bus"))"], file),
            (
                ["--data-dir", sandbox.path("d1")], ["DBUS_SESSION_BUS_ADDRESS": "unix:path=\(sandbox.path("no-bus"))"],
                "cannot start"
            ),
            (["--data-dir", sandbox.path("d2")], [:], "No session bus"),
        ]
        for (arguments, extra, needle) in cases {
            let result = try await sandbox.run(
                binary, arguments, environment: Sandbox.baseEnvironment.merging(extra) { $1 })
            #expect(result.status == 1, "\(arguments): \(result)")
            let last = result.errors.split(separator: "\n").last.map(String.init) ?? ""
            #expect(last.hasPrefix("petprogressd: ") && last.contains(needle), "\(arguments): \(result)")
        }
    }

    @Test(
        "--expect-data-dir: another directory exits 78 (EX_CONFIG) with one line naming both and the fix, creating nothing"
    )
    func expectedDataDirectoryDiffers() async throws {
        let sandbox = try Sandbox("expect")
        defer { sandbox.close() }
        let binary = try PetDaemon.binary()
        let unitDirectory = sandbox.path("home/.local/share/petprogress")
        let cases: [([String], [String: String], String, String)] = [
            (["--data-dir", sandbox.path("data")], [:], sandbox.path("data"), "from --data-dir"),
            ([], ["XDG_DATA_HOME": sandbox.path("xdg")], sandbox.path("xdg/petprogress"), "from XDG_DATA_HOME="),
            (
                [], ["HOME": sandbox.path("other-home")], sandbox.path("other-home/.local/share/petprogress"),
                "from HOME"
            ),
        ]
        for (arguments, extra, directory, source) in cases {
            let result = try await sandbox.run(
                binary, arguments + ["--expect-data-dir", unitDirectory],
                environment: Sandbox.baseEnvironment.merging(extra) { $1 })
            #expect(result.status == 78, "\(arguments) \(extra): \(result)")
            let lines = result.errors.split(separator: "\n")
            #expect(lines.count == 1, "\(result)")
            let line = lines.first.map(String.init) ?? ""
            for needle in [
                "petprogressd: the data directory is \(directory) (\(source)", unitDirectory,
                "systemctl --user edit petprogress", "Environment=PETPROGRESS_UNIT_DATA_DIR=\(directory) /",
                "ReadWritePaths=\(directory)",
            ] {
                #expect(line.contains(needle), "\(needle): \(line)")
            }
            #expect(line.hasSuffix(directory), "the fix ends the line, so it copies cleanly: \(line)")
            #expect(!FileManager.default.fileExists(atPath: directory), "a refused start must create nothing")
        }
    }

    @Test("--expect-data-dir: the same directory, also spelled with a trailing slash or through a symlink, starts")
    func expectedDataDirectoryMatches() async throws {
        let world = try await World("expect-same")
        defer { world.close() }
        let data = world.sandbox.path("data")
        try FileManager.default.createDirectory(atPath: data, withIntermediateDirectories: false)
        try FileManager.default.createSymbolicLink(atPath: world.sandbox.path("link"), withDestinationPath: data)
        for expected in [data, data + "/", world.sandbox.path("link")] {
            let daemon = try await world.daemon(
                dataDirectory: data, now: "2026-03-02T08:30:00+01:00", extraArguments: ["--expect-data-dir", expected])
            #expect(try world.client().status().string("data_dir") == data)
            #expect(await daemon.stop() == 0, "\(daemon.process.errors.suffix(500))")
        }
    }

    @Test(
        "the extremes of --time-scale run: 1e-9 (a timer beyond Int64 nanoseconds) and 1000000 (11.6 days a second)",
        arguments: [1e-9, 1_000_000])
    func timeScaleExtremes(scale: Double) async throws {
        let world = try await World("scale")
        defer { world.close() }
        let daemon = try await world.daemon(now: "2026-03-02T08:30:00+01:00", timeScale: scale)
        let client = try world.client()
        _ = try client.addTask("Anything", "23:00")
        let before = try client.status().string("open_day")
        if scale > 1 {
            // Days go by: closeouts keep up with the clock.
            #expect(await poll { (try? client.status().string("open_day")) != before })
        } else {
            #expect(before == "2026-03-02")
        }
        #expect(daemon.process.isRunning)
        #expect(await daemon.stop() == 0, "\(daemon.process.errors.suffix(500))")
    }
}
