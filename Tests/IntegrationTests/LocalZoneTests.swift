import DBusKit
import Foundation
import TestSupport
import Testing

/// Which zone is local, as glibc decides it (docs/DECISIONS.md, "Which zone is local"): `TZ` as a
/// zone name, `:name`, a path, a POSIX rule, with `TZDIR`; an empty `TZ` is UTC. A zone that cannot
/// be used is UTC with one log line naming the file and the problem and a `GetStatus` problem until
/// it is fixed; a replaced zone file (what a tzdata upgrade does) is read again. The real daemon,
/// real files.
///
/// Serialized: each case holds a private bus and a daemon, each with an inotify instance, and the
/// kernel allows 128 per user; two dozen cases at once next to the other suites ran out of them.
@Suite(.serialized) struct LocalZoneTests {
    /// 10:20Z on 2026-07-01: the latest tick is 10:00Z in UTC and 10:15Z (16:00) in Kathmandu.
    static let now = "2026-07-01T10:20:00Z"
    static let utcTick = unix("2026-07-01T10:00:00Z")
    static let kathmanduTick = unix("2026-07-01T10:15:00Z")

    struct Case: Sendable, CustomStringConvertible {
        /// `TZ`; `@` stands for the sandbox's `zones` directory.
        let tz: String
        var tzdir = false
        let kathmandu: Bool
        /// A piece of the problem sentence, or nil when there must be none.
        let problem: String?
        var description: String { "TZ=\(tz)\(tzdir ? " TZDIR=@" : "")" }
    }

    static let cases: [Case] = [
        Case(tz: "", kathmandu: false, problem: nil),
        Case(tz: ":", kathmandu: false, problem: nil),
        Case(tz: "Asia/Kathmandu", kathmandu: true, problem: nil),
        Case(tz: ":Asia/Kathmandu", kathmandu: true, problem: nil),
        Case(tz: "/usr/share/zoneinfo/Asia/Kathmandu", kathmandu: true, problem: nil),
        Case(tz: "Mine/Nepal", tzdir: true, kathmandu: true, problem: nil),
        Case(tz: "<+0545>-5:45", kathmandu: true, problem: nil),
        Case(tz: "XXX-5:45YYY,J1/0,J2/0", kathmandu: true, problem: nil),
        Case(tz: "Mine/Nepal", kathmandu: false, problem: "/usr/share/zoneinfo/Mine/Nepal): no such file"),
        Case(tz: "CET-1CEST,M3.5.0", kathmandu: false, problem: "is not a POSIX TZ rule (at byte 17"),
        Case(tz: "@/truncated", kathmandu: false, problem: "not a valid zone file (truncated:"),
        Case(tz: "@/bad-magic", kathmandu: false, problem: "not a valid zone file (not TZif data (bad magic))"),
        Case(tz: "@/bad-footer", kathmandu: false, problem: "not a valid zone file (malformed footer:"),
        Case(tz: "@/fifo", kathmandu: false, problem: "fifo\": not a regular file"),
        Case(tz: "@/Mine", kathmandu: false, problem: "Mine\": not a regular file"),
        Case(tz: "@/absent", kathmandu: false, problem: "absent\": no such file or directory"),
    ]

    @Test("resolution", arguments: cases)
    func resolves(_ c: Case) async throws {
        let world = try await World("localzone")
        defer { world.close() }
        let zones = try Self.zoneFiles(in: world.sandbox)
        var environment = PetDaemon.environment(
            sandbox: world.sandbox, bus: world.bus, zone: c.tz.replacing("@", with: zones))
        if c.tzdir { environment["TZDIR"] = zones }
        let daemon = try await Self.start(world, environment)
        let client = try world.client()
        let entry = try client.entry()
        #expect(entry.int("date") == (c.kathmandu ? Self.kathmanduTick : Self.utcTick), "\(daemon.errors)")
        let problems = try Self.problems(client)
        let logged = daemon.errors.components(separatedBy: "\n").filter { $0.contains("time zone:") }
        if let expected = c.problem {
            #expect(problems.count == 1 && problems[0].contains(expected), "\(problems)")
            #expect(problems.first?.hasSuffix("using UTC until it is fixed") == true)
            #expect(logged.count == 1 && logged[0].contains(expected), "one log line: \(logged)")
        } else {
            #expect(problems.isEmpty, "\(problems)")
            #expect(logged.isEmpty, "\(logged)")
        }
    }

    /// dpkg unpacks a new zone file beside the old and renames it over: nothing in /etc changes.
    /// The zone here is a link to that file, as /etc/localtime is, so the watch must follow it.
    @Test("a zone file replaced by a tzdata upgrade is read again")
    func replacedZoneFile() async throws {
        let world = try await World("tzdata-upgrade")
        defer { world.close() }
        let zones = try Self.zoneFiles(in: world.sandbox)
        try FileManager.default.copyItem(atPath: "/usr/share/zoneinfo/Etc/UTC", toPath: zones + "/Mine/Here")
        try FileManager.default.createSymbolicLink(atPath: zones + "/here", withDestinationPath: zones + "/Mine/Here")
        let recorder = try SignalRecorder(bus: world.bus)
        defer { recorder.stop() }
        let environment = PetDaemon.environment(sandbox: world.sandbox, bus: world.bus, zone: zones + "/here")
        let daemon = try await Self.start(world, environment, watching: true)
        let client = try world.client()
        #expect(try client.entry().int("date") == Self.utcTick)

        try FileManager.default.copyItem(
            atPath: "/usr/share/zoneinfo/Asia/Kathmandu", toPath: zones + "/Mine/Here.dpkg-new")
        #expect(rename(zones + "/Mine/Here.dpkg-new", zones + "/Mine/Here") == 0)

        let changed = await recorder.wait(timeout: .seconds(10)) { $0.contains { $0.member == "EntryChanged" } }
        #expect(changed, "EntryChanged after the upgrade: \(daemon.errors)")
        try await Task.sleep(for: .milliseconds(500))
        #expect(recorder.signals("EntryChanged").map { $0.entry.int("date") } == [Self.kathmanduTick], "exactly once")
        #expect(try client.entry().int("date") == Self.kathmanduTick)
        #expect(daemon.errors.contains("time zone changed to \(zones)/here"), "\(daemon.errors)")
    }

    @Test("a zone problem is listed until the file is fixed, and comes back when it breaks again")
    func problemUntilFixed() async throws {
        let world = try await World("zone-fixed")
        defer { world.close() }
        let zones = try Self.zoneFiles(in: world.sandbox)
        let environment = PetDaemon.environment(sandbox: world.sandbox, bus: world.bus, zone: zones + "/truncated")
        let daemon = try await Self.start(world, environment, watching: true)
        let client = try world.client()
        #expect(try Self.problems(client).count == 1)

        try FileManager.default.copyItem(atPath: "/usr/share/zoneinfo/Asia/Kathmandu", toPath: zones + "/new")
        #expect(rename(zones + "/new", zones + "/truncated") == 0)
        #expect(await poll { try Self.problems(client).isEmpty }, "fixed: \(daemon.errors)")
        #expect(try client.entry().int("date") == Self.kathmanduTick)
        #expect(daemon.errors.contains("time zone: the problem is fixed"))

        #expect(rename(zones + "/bad-magic", zones + "/truncated") == 0)
        #expect(await poll { try Self.problems(client).first?.contains("bad magic") == true }, "\(daemon.errors)")
        #expect(try client.entry().int("date") == Self.kathmanduTick, "the snapshot never goes back")
        #expect(daemon.errors.components(separatedBy: "time zone: TZ=").count - 1 == 2, "two problems, two lines")
    }

    struct EtcCase: Sendable, CustomStringConvertible {
        /// Where /etc/localtime links (`@` is the sandbox's zones directory); nil for no link.
        let localtime: String?
        /// What /etc/timezone holds; nil for no file.
        let timezone: String?
        let kathmandu: Bool
        let problem: String?
        var description: String { "localtime → \(localtime ?? "none"), timezone \(timezone ?? "none")" }
    }

    static let etcCases: [EtcCase] = [
        EtcCase(localtime: "/usr/share/zoneinfo/Asia/Kathmandu", timezone: "Etc/UTC", kathmandu: true, problem: nil),
        EtcCase(localtime: nil, timezone: "Asia/Kathmandu\n", kathmandu: true, problem: nil),
        EtcCase(localtime: nil, timezone: nil, kathmandu: false, problem: nil),
        EtcCase(
            localtime: "@/bad-magic", timezone: "Asia/Kathmandu", kathmandu: false,
            problem: "bad-magic): not a valid zone file (not TZif data (bad magic))"),
        EtcCase(
            localtime: "/usr/share/zoneinfo/Nowhere/Gone", timezone: nil, kathmandu: false,
            problem: "/etc/localtime (a link to /usr/share/zoneinfo/Nowhere/Gone): no such file or directory"),
        EtcCase(
            localtime: nil, timezone: "Nowhere/Gone", kathmandu: false,
            problem: "\"Nowhere/Gone\" from /etc/timezone (/usr/share/zoneinfo/Nowhere/Gone): no such file"),
    ]

    /// Without `TZ`: /etc/localtime, else /etc/timezone, else UTC. The daemon runs in a private
    /// mount namespace with a sandbox directory bind-mounted over /etc (ZoneChangeTests).
    @Test(
        "from /etc",
        .enabled(
            if: ZoneChangeTests.namespaceUnavailable == nil, skipped(ZoneChangeTests.namespaceUnavailable)),
        arguments: etcCases)
    func fromEtc(_ c: EtcCase) async throws {
        let world = try await World("etczone")
        defer { world.close() }
        let zones = try Self.zoneFiles(in: world.sandbox)
        let etc = world.sandbox.path("etc")
        try FileManager.default.createDirectory(atPath: etc, withIntermediateDirectories: true)
        if let link = c.localtime {
            try FileManager.default.createSymbolicLink(
                atPath: etc + "/localtime", withDestinationPath: link.replacing("@", with: zones))
        }
        if let name = c.timezone { try Data(name.utf8).write(to: URL(fileURLWithPath: etc + "/timezone")) }
        let daemon = try world.daemonWithPrivateEtc(etc, now: Self.now, timeScale: nil)
        let client = try world.client()
        #expect(await poll(timeout: .seconds(20)) { (try? client.daemonPID()) == daemon.pid }, "\(daemon.errors)")
        #expect(try client.entry().int("date") == (c.kathmandu ? Self.kathmanduTick : Self.utcTick), "\(daemon.errors)")
        let problems = try Self.problems(client)
        if let expected = c.problem {
            #expect(problems.count == 1 && problems[0].contains(expected), "\(problems)")
        } else {
            #expect(problems.isEmpty, "\(problems)")
        }
    }

    /// In a user namespace whose inotify limit is 0 until two seconds after start, the daemon has no
    /// watch at first: it says so, tries again, and once it can, reads the zone afresh — so a zone
    /// file replaced meanwhile is noticed.
    /// Root only: the namespace maps the daemon to its uid 0, and the bus takes its D-Bus
    /// credentials (uid 0) only when the bus's own user is root; as another user the bus refuses
    /// the connection (NoReply), whatever the daemon does.
    @Test(
        "without inotify at start, the daemon tries again and catches up with a change made meanwhile",
        .enabled(if: getuid() == 0, "a user namespace's root reaches the bus only when the bus runs as root (CI runs as root)"))
    func inotifyRefusedAtStart() async throws {
        let world = try await World("no-inotify")
        defer { world.close() }
        let zones = try Self.zoneFiles(in: world.sandbox)
        try FileManager.default.copyItem(atPath: "/usr/share/zoneinfo/Etc/UTC", toPath: zones + "/here")
        let recorder = try SignalRecorder(bus: world.bus)
        defer { recorder.stop() }
        let limit = "/proc/sys/user/max_inotify_instances"
        let daemon = try world.sandbox.spawn(
            "/usr/bin/unshare",
            [
                "-Ur", "sh", "-c", "echo 0 > \(limit) && { sleep 2; echo 128 > \(limit); } & exec \"$@\"", "sh",
                try PetDaemon.binary(), "--data-dir", world.sandbox.path("data"), "--now", Self.now, "--time-scale",
                "1",
            ],
            environment: PetDaemon.environment(sandbox: world.sandbox, bus: world.bus, zone: zones + "/here"),
            label: "petprogressd-userns")
        let client = try world.client()
        #expect(await poll(timeout: .seconds(20)) { (try? client.daemonPID()) == daemon.pid }, "\(daemon.errors)")
        #expect(try client.entry().int("date") == Self.utcTick)
        #expect(daemon.errors.contains("cannot watch for time-zone changes yet (inotify: Too many open files)"))

        try FileManager.default.copyItem(atPath: "/usr/share/zoneinfo/Asia/Kathmandu", toPath: zones + "/new")
        #expect(rename(zones + "/new", zones + "/here") == 0)

        let changed = await recorder.wait(timeout: .seconds(15)) { $0.contains { $0.member == "EntryChanged" } }
        #expect(changed, "\(daemon.errors)")
        #expect(daemon.errors.contains("watching for time-zone changes"))
        #expect(try client.entry().int("date") == Self.kathmanduTick)
    }

    /// Starts the daemon at `now` with `environment` and waits until it answers. With `watching`,
    /// until it watches for zone changes: every private bus and daemon of the parallel suites holds
    /// an inotify instance, and when the kernel's 128 per user run out the daemon says so and tries
    /// again every two seconds.
    static func start(_ world: World, _ environment: [String: String], watching: Bool = false) async throws -> Spawned {
        var arguments = ["--data-dir", world.sandbox.path("data"), "--now", now]
        if watching { arguments += ["--time-scale", "1"] }
        let daemon = try world.sandbox.spawn(
            try PetDaemon.binary(), arguments, environment: environment, label: "petprogressd")
        let client = try world.client()
        // Ask who owns the name (which activates nothing) before calling the daemon.
        let up = await poll(timeout: .seconds(20)) { (try? client.daemonPID()) == daemon.pid }
        guard up else { throw HarnessError("the daemon did not own its name: \(daemon.errors)") }
        _ = try client.status()  // answered from the event loop: the watch, if any, is in place
        if watching { try await PetDaemon.waitForZoneWatch(daemon) }
        return daemon
    }

    static func problems(_ client: RawClient) throws -> [String] {
        (try client.status()["problems"]?.unwrappingVariants.arrayValues ?? []).compactMap(\.stringValue)
    }

    /// `zones/`: Mine/Nepal (Kathmandu), and files that are not zones.
    static func zoneFiles(in sandbox: Sandbox) throws -> String {
        let zones = sandbox.path("zones")
        let fm = FileManager.default
        try fm.createDirectory(atPath: zones + "/Mine", withIntermediateDirectories: true)
        try fm.copyItem(atPath: "/usr/share/zoneinfo/Asia/Kathmandu", toPath: zones + "/Mine/Nepal")
        let berlin = try Data(contentsOf: URL(fileURLWithPath: "/usr/share/zoneinfo/Europe/Berlin"))
        try berlin.prefix(300).write(to: URL(fileURLWithPath: zones + "/truncated"))
        try Data("TZjf".utf8 + berlin.dropFirst(4)).write(to: URL(fileURLWithPath: zones + "/bad-magic"))
        var footer = berlin
        footer.replaceSubrange(footer.count - 5..<footer.count - 1, with: Data(",M1".utf8))
        try footer.write(to: URL(fileURLWithPath: zones + "/bad-footer"))
        guard mkfifo(zones + "/fifo", 0o600) == 0 else { throw HarnessError("mkfifo: \(errno)") }
        return zones
    }
}
