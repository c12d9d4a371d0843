import DBusKit
import Foundation
import TestSupport
import Testing

/// Local only and quiet (petprogress(7) §1): the daemon opens nothing but AF_UNIX sockets, writes
/// nowhere but its data directory (docs/RELIABILITY.md, "Confinement"), and never talks to
/// org.freedesktop.Notifications.
@Suite("Isolation")
struct IsolationTests {
    /// Why strace cannot be used here, or nil when it can (it is missing, or ptrace is not permitted).
    static let straceUnavailable: String? = {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/strace") else {
            return "strace is not installed (scripts/deps.sh installs it)"
        }
        guard
            let probe = try? Spawned(
                "/usr/bin/strace", ["-f", "-qq", "-o", "/dev/null", "/bin/true"],
                environment: Sandbox.baseEnvironment, directory: "/tmp", label: "strace-probe")
        else {
            return "strace cannot be started"
        }
        defer {
            try? FileManager.default.removeItem(atPath: probe.stdoutPath)
            try? FileManager.default.removeItem(atPath: probe.stderrPath)
        }
        let code = probe.reap(blocking: true)
        return code == 0 ? nil : "strace cannot trace here (ptrace not permitted?): \(probe.errors.prefix(200))"
    }()

    /// A short session: a tick and a closeout crossed (60×, from 23:59:10), calls from every client.
    /// The closeout is awaited, so the session ends after midnight however slow the machine.
    static func session(_ world: World) async throws {
        let client = try world.client()
        // The session only has to exercise the daemon; under load midnight may already have
        // passed, so the task's fate is not asserted here (other suites check the rules).
        if let id = try? client.addTask("Quiet", "23:59") { _ = try? client.markDone(id) }
        #expect(try await world.dbusSend("GetWidgetEntry").status == 0)
        #expect(try await world.gdbusCall("GetTimeline").status == 0)
        #expect(try await world.busctlCall("GetStatus").status == 0)
        try client.setProperty("GraceMinutes", .uint32(30))
        // 60×: midnight (the tick and the closeout) is 50 simulated seconds away, under a real second.
        let closed = await poll(timeout: .seconds(15)) {
            (try? client.status().string("last_closed_day")) == "2026-03-02"
        }
        #expect(closed, "the closeout ran during the session")
    }

    /// The system calls the confinement test traces: sockets, connections, and everything that
    /// creates, changes or removes a file.
    static let traced = [
        "socket", "socketpair", "connect", "open", "openat", "openat2", "creat", "rename", "renameat", "renameat2",
        "unlink", "unlinkat", "rmdir", "mkdir", "mkdirat", "link", "linkat", "symlink", "symlinkat", "truncate",
        "chmod", "fchmodat", "chown", "fchownat", "mknod", "mknodat",
    ]

    @Test(
        "strace -f: every socket is AF_UNIX, every connect goes to a path socket, every write stays in the data directory",
        .enabled(if: IsolationTests.straceUnavailable == nil, skipped(IsolationTests.straceUnavailable)))
    func confined() async throws {
        let world = try await World("strace")
        defer { world.close() }
        let trace = world.sandbox.path("calls.trace")
        let data = world.sandbox.path("data")
        let strace = try world.sandbox.spawn(
            "/usr/bin/strace",
            [
                "-f", "-qq", "-y", "-s", "4096", "-e", "trace=" + Self.traced.joined(separator: ","), "-o", trace,
                try PetDaemon.binary(), "--data-dir", data, "--now", "2026-03-02T23:59:10+01:00", "--time-scale", "60",
            ],
            environment: PetDaemon.environment(sandbox: world.sandbox, bus: world.bus, zone: "Europe/Berlin"),
            label: "strace")
        let client = try world.client()
        #expect(
            await poll(timeout: .seconds(20)) { (try? client.daemonPID()) != nil },
            "the traced daemon owns its name: \(strace.errors)")
        try await Self.session(world)
        try client.call("SetRest", [.string("tomorrow"), .string("tomorrow"), .bool(true)])
        let pid = try client.daemonPID()
        #expect(pid != strace.pid, "the daemon is strace's child")
        kill(pid, SIGTERM)
        let code = await strace.waitExit(timeout: .seconds(15))
        #expect(code == 0, "strace passes on the daemon's exit status 0: \(strace.errors)")
        let lines = try String(contentsOfFile: trace, encoding: .utf8).split(separator: "\n").map(String.init)
        let calls = Self.calls(lines)
        let sockets = calls.filter { $0.name == "socket" || $0.name == "socketpair" }
        #expect(!sockets.isEmpty, "the bus connection's socket was traced: \(lines.prefix(5))")
        for call in sockets { #expect(call.line.contains("(AF_UNIX,"), "\(call.line)") }
        for call in calls where call.name == "connect" {
            #expect(call.line.contains("sa_family=AF_UNIX, sun_path=\""), "\(call.line)")
        }
        let writes = calls.filter(\.writes)
        #expect(writes.contains { $0.name == "rename" || $0.name == "renameat" || $0.name == "renameat2" })
        #expect(writes.contains { $0.line.contains("history-2026.jsonl") }, "the closeout's history append was traced")
        var outside = 0
        for call in writes {
            for path in call.paths where path != data && !path.hasPrefix(data + "/") {
                Issue.record("written outside \(data): \(call.line)")
                outside += 1
            }
        }
        let connects = calls.filter { $0.name == "connect" }.count
        try ReliabilityRun.fragment(
            "71-confinement-strace",
            """
            ## Confinement: what the daemon does

            `IsolationTests.confined`, \(ReliabilityRun.daemonBuild), under `strace -f -y`: a session \
            of calls from DBusKit, dbus-send, gdbus and busctl (tasks, a setting, a rest day) and a \
            closeout at 60×. Of \(calls.count) traced calls (\(Self.traced.joined(separator: ", "))): \
            \(sockets.count) `socket`, all `AF_UNIX`; \(connects) `connect`, all to a path socket (the bus); \
            \(writes.count) that create, change or remove a file, \(outside) of them outside the data directory.


            """)
    }

    /// One traced system call: its name, whether it creates or changes a file, and the paths it
    /// names (relative ones resolved against the directory strace's `-y` shows for their dirfd).
    struct TracedCall {
        let name: String
        let line: String

        static let writeFlags = ["O_WRONLY", "O_RDWR", "O_CREAT", "O_TRUNC", "O_APPEND", "O_TMPFILE"]

        var writes: Bool {
            switch name {
            case "socket", "socketpair", "connect": false
            case "open", "openat", "openat2": Self.writeFlags.contains { line.contains($0) }
            default: true
            }
        }

        var paths: [String] {
            var found: [String] = []
            var directory = "/"
            var rest = Substring(line.drop { $0 != "(" })
            while let next = rest.firstIndex(where: { $0 == "\"" || $0 == "<" }) {
                let closing: Character = rest[next] == "<" ? ">" : "\""
                let body = rest[rest.index(after: next)...]
                guard let end = body.firstIndex(of: closing) else { break }
                let text = String(body[..<end])
                if rest[next] == "<" {
                    directory = text
                } else {
                    found.append(text.hasPrefix("/") ? text : directory + "/" + text)
                }
                rest = body[body.index(after: end)...]
                // The result's `= 3</path>` describes the opened file, not an argument.
                if rest.hasPrefix(")") { break }
            }
            return found
        }
    }

    /// The calls of a `strace -f -y` log, an `<unfinished ...>` line standing for its call.
    static func calls(_ lines: [String]) -> [TracedCall] {
        lines.compactMap { line in
            // "1234 openat(AT_FDCWD</x>, ...) = 3</x/y>"
            let afterPID = line.drop { $0 != " " }.drop { $0 == " " }
            guard !afterPID.hasPrefix("<..."), let open = afterPID.firstIndex(of: "(") else { return nil }
            let name = String(afterPID[..<open])
            return traced.contains(name) ? TracedCall(name: name, line: String(afterPID)) : nil
        }
    }

    @Test("a dbus-monitor capture of a whole session has nothing for org.freedesktop.Notifications")
    func noNotifications() async throws {
        let world = try await World("notify")
        defer { world.close() }
        let monitor = try world.sandbox.spawn(
            "dbus-monitor", ["--address", world.bus.address], environment: world.bus.environment,
            label: "dbus-monitor")
        #expect(
            await poll {
                monitor.output.contains("NameAcquired") || monitor.output.contains("member=BecomeMonitor")
                    || !monitor.output.isEmpty
            })
        let daemon = try await world.daemon(now: "2026-03-02T23:59:10+01:00", timeScale: 60)
        try await Self.session(world)
        let client = try world.client()
        let owner = try #require(
            try client.connection.call(
                destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus", interface: "org.freedesktop.DBus",
                member: "GetNameOwner", arguments: [.string(PetDaemon.name)]
            ).first?.stringValue)
        #expect(await daemon.stop() == 0)
        #expect(
            await poll {
                monitor.output.contains("member=NameOwnerChanged")
                    && monitor.output.contains("string \"\(PetDaemon.name)\"")
            })
        await monitor.stop()
        let capture = monitor.output
        #expect(capture.contains("member=AddTask"), "the capture saw the session")
        #expect(capture.contains("member=EntryChanged"), "and the midnight tick")
        #expect(!capture.contains("org.freedesktop.Notifications"))
        // Every method call the daemon itself made went to the bus driver.
        let callsByDaemon = capture.split(separator: "\n").filter {
            $0.hasPrefix("method call") && $0.contains("sender=\(owner) ")
        }
        #expect(!callsByDaemon.isEmpty, "it called the bus (Hello, RequestName)")
        for line in callsByDaemon { #expect(line.contains("destination=org.freedesktop.DBus "), "\(line)") }
    }

    @Test(
        "an idle daemon makes no system call between ticks: it does not poll (strace -f, every syscall)",
        .enabled(if: IsolationTests.straceUnavailable == nil, skipped(IsolationTests.straceUnavailable)))
    func idleMeansIdle() async throws {
        let world = try await World("idle")
        defer { world.close() }
        let trace = world.sandbox.path("all.trace")
        // At real speed from 08:30: the next wake-up (the 09:00 tick) is half an hour away.
        let strace = try world.sandbox.spawn(
            "/usr/bin/strace",
            [
                "-f", "-qq", "-o", trace, try PetDaemon.binary(), "--data-dir", world.sandbox.path("data"),
                "--now", "2026-03-02T08:30:00+01:00",
            ],
            environment: PetDaemon.environment(sandbox: world.sandbox, bus: world.bus, zone: "Europe/Berlin"),
            label: "strace")
        let client = try world.client()
        #expect(await poll(timeout: .seconds(20)) { (try? client.daemonPID()) != nil }, "\(strace.errors)")
        _ = try client.addTask("Then rest", "12:00")
        // Without an inotify instance (the parallel suites can use up the kernel's 128) the daemon
        // retries every two seconds: idle is measured once it watches.
        try await PetDaemon.waitForZoneWatch(strace)
        func lines() -> Int {
            ((try? String(contentsOfFile: trace, encoding: .utf8)) ?? "").filter { $0 == "\n" }.count
        }
        // Let the reply's system calls land, then watch a quiet stretch.
        try await Task.sleep(for: .milliseconds(500))
        let before = lines()
        try await Task.sleep(for: .seconds(3))
        let after = lines()
        #expect(after == before, "system calls while idle: \(after - before)")
        // The trace is live: one call shows up at once.
        _ = try client.status()
        #expect(await poll { lines() > after })
        kill(try client.daemonPID(), SIGTERM)
        #expect(await strace.waitExit(timeout: .seconds(15)) == 0)
    }
}
