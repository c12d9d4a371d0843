import Foundation
import Glibc
import TestSupport
import Testing

/// The data directory is the user's alone, nothing in it is followed, and no file blocks the
/// start (petprogress(7) §5), on the real daemon: a refused start is one line and status 78; a FIFO
/// where a file goes is refused at once, not waited on; SIGTERM ends a start at any moment.
@Suite("Data directory safety")
struct DataDirectorySafetyTests {
    static let victimText = "echo the user's own start-up file\n"

    /// Runs a shell command as another user (as root, nobody through setpriv) or as ourselves.
    static func asAnotherUser(_ sandbox: Sandbox, _ command: String) async throws {
        let result =
            getuid() == 0
            ? try await sandbox.run(
                "/usr/bin/setpriv",
                ["--reuid=nobody", "--regid=nogroup", "--clear-groups", "/bin/sh", "-c", command],
                environment: Sandbox.baseEnvironment)
            : try await sandbox.run("/bin/sh", ["-c", command], environment: Sandbox.baseEnvironment)
        try #require(result.status == 0, "\(result)")
    }

    /// What is planted in (or done to) a fresh data directory before the daemon starts, and the
    /// words its one line must hold.
    static let refusals: [(name: String, needle: String)] = [
        ("another user's directory", "belongs to user"),
        ("a FIFO as .lock", ".lock is a FIFO"),
        ("a FIFO as state.json", "state.json is a FIFO"),
        ("a FIFO as this year's history", "history-2026.jsonl is a FIFO"),
        ("a link as .lock, planted by another user", ".lock is a symbolic link"),
        ("a link as state.json, planted by another user", "state.json is a symbolic link"),
        ("a link as history, planted by another user", "history-2026.jsonl is a symbolic link"),
    ]

    @Test(arguments: refusals.map(\.name)) func aStartIsRefusedWithOneLineAndStatus78(attack: String) async throws {
        let needle = try #require(Self.refusals.first { $0.name == attack }?.needle)
        let sandbox = try Sandbox("unsafe")
        defer { sandbox.close() }
        chmod(sandbox.root, 0o755)  // another user must reach the data directory
        let data = sandbox.path("data")
        let victim = sandbox.path("victim.sh")
        mkdir(data, 0o700)
        try Self.victimText.write(toFile: victim, atomically: false, encoding: .utf8)
        switch attack {
        case "another user's directory":
            guard getuid() == 0 else {
                print("SKIP \(attack): making a directory of another user needs root (CI runs as root)")
                return
            }
            let nobody = try #require(getpwnam("nobody")).pointee
            chown(data, nobody.pw_uid, nobody.pw_gid)
        case let fifo where fifo.hasPrefix("a FIFO"):
            try #require(mkfifo(data + "/" + String(needle.prefix { $0 != " " }), 0o600) == 0)
        default:
            chmod(data, 0o777)
            try await Self.asAnotherUser(sandbox, "ln -s \(victim) \(data)/\(needle.prefix { $0 != " " })")
        }
        // A start that waits on a FIFO is stopped by the timeout, and fails below.
        let result = try await sandbox.run(
            try PetDaemon.binary(), ["--data-dir", data, "--now", "2026-03-09T12:00:00+01:00"],
            environment: Sandbox.baseEnvironment, timeout: .seconds(20))
        #expect(result.status == 78, "\(result)")
        let line = result.errors.split(separator: "\n").last.map(String.init) ?? ""
        #expect(line.hasPrefix("petprogressd: cannot start: ") && line.contains(needle), "\(result)")
        #expect(try String(contentsOfFile: victim, encoding: .utf8) == Self.victimText)
        if attack.contains("planted by another user") {
            // The write bits others had are gone before anything in the directory is opened.
            #expect(result.errors.contains("(mode 0777); its mode is now 0700"), "\(result)")
            var info = stat()
            #expect(stat(data, &info) == 0 && info.st_mode & 0o777 == 0o700)
        }
    }

    /// The data directory's own path (petprogress(7) §5): a link to a directory is refused, and so
    /// is a directory inside one others can write to that is not sticky; inside a sticky one it is
    /// used, and a mode that lets others in is repaired to 0700.
    @Test func theDataDirectorysOwnPathIsNotFollowedNorInAnOpenDirectory() async throws {
        let sandbox = try Sandbox("data-path")
        defer { sandbox.close() }
        let start = { (data: String) in
            try await sandbox.run(
                try PetDaemon.binary(), ["--data-dir", data, "--now", "2026-03-09T12:00:00+01:00"],
                environment: Sandbox.baseEnvironment, timeout: .seconds(20))
        }
        let real = sandbox.path("real")
        mkdir(real, 0o700)
        try #require(symlink(real, sandbox.path("link")) == 0)
        for given in [sandbox.path("link"), sandbox.path("link") + "/"] {
            let linked = try await start(given)
            #expect(linked.status == 78 && linked.errors.contains("is a symbolic link (to \(real))"), "\(linked)")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: real).isEmpty)

        let open = sandbox.path("open")
        mkdir(open, 0o777)
        chmod(open, 0o777)
        let inOpen = try await start(open + "/data")
        #expect(
            inOpen.status == 78 && inOpen.errors.contains("which others can write to (mode 0777) and is not sticky"),
            "\(inOpen)")

        // Sticky, like /tmp: the user's own entry is used (the start goes on to the bus, and the
        // data directory's mode 0755 became 0700 first).
        let sticky = sandbox.path("sticky")
        mkdir(sticky, 0o777)
        chmod(sticky, 0o1777)
        mkdir(sticky + "/data", 0o755)
        chmod(sticky + "/data", 0o755)
        let world = World(sandbox: sandbox, bus: try await PrivateBus(in: sandbox))
        let daemon = try await world.daemon(dataDirectory: sticky + "/data", now: "2026-03-09T12:00:00+01:00")
        var info = stat()
        #expect(stat(sticky + "/data", &info) == 0 && info.st_mode & 0o7777 == 0o700)
        #expect(await daemon.stop() == 0)
        #expect(daemon.process.errors.contains("(mode 0755); its mode is now 0700"), "\(daemon.process.errors)")
    }

    /// A FIFO as `stages.json` made the daemon's start wait for a writer with SIGTERM blocked: now
    /// it is a problem sentence and the built-in table. SIGTERM sent at once, and at moments
    /// spread over the start, ends the daemon every time.
    @Test func aFIFOAsTheStageFileNeitherBlocksTheStartNorSIGTERM() async throws {
        let world = try await World("stages-fifo")
        defer { world.close() }
        let config = world.sandbox.path("home/.config/petprogress")
        try FileManager.default.createDirectory(atPath: config, withIntermediateDirectories: true)
        try #require(mkfifo(config + "/stages.json", 0o600) == 0)

        let daemon = try await world.daemon(now: "2026-03-09T12:00:00+01:00")
        let problems = try #require(try world.client().status()["problems"]?.arrayValues?.compactMap(\.stringValue))
        #expect(
            problems.contains { $0.contains("stages.json cannot be read (it is a FIFO, not a regular file)") },
            "\(problems)")
        #expect(await daemon.stop() == 0)

        for delay in [0, 2, 5, 10, 20, 40, 80] {
            let starting = try await world.daemon(
                dataDirectory: world.sandbox.path("data-\(delay)"), now: "2026-03-09T12:00:00+01:00",
                waitForName: false)
            try await Task.sleep(for: .milliseconds(delay))
            starting.process.send(SIGTERM)
            let status = await starting.process.waitExit(timeout: .seconds(20))
            #expect(status != nil, "SIGTERM \(delay) ms into the start did not end it")
            if status == nil { _ = starting.process.killNow() }
        }
    }

    /// `petctl simulate` reads `stages.json` itself: a FIFO there is a note, not a wait.
    @Test func petctlSimulateDoesNotWaitOnAFIFOStageFile() async throws {
        let world = try await World("simulate-fifo")
        defer { world.close() }
        let config = world.sandbox.path("home/.config")
        try FileManager.default.createDirectory(atPath: config + "/petprogress", withIntermediateDirectories: true)
        try #require(mkfifo(config + "/petprogress/stages.json", 0o600) == 0)
        let result = try await world.petctl(
            ["simulate", "--days", "3", "--tasks", "2", "--done-rate", "1", "--on-time-rate", "1"],
            environment: ["XDG_CONFIG_HOME": config])
        #expect(result.status == 0, "\(result)")
        #expect(result.errors.contains("stages.json cannot be read (it is a FIFO, not a regular file)"), "\(result)")
    }
}
