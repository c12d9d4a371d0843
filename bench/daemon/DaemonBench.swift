import DBusKit
import Foundation
import Glibc
import LinuxKit
import PetBus
import PetCore
import PetStore

/// Every figure of the daemon's benchmark (docs/BENCHMARKS.md), printed with its target, in
/// one run. Not a test: nothing here fails.
struct DaemonBench {
    let daemon: String
    let petctl: String
    let idleSeconds: Int
    /// The C round-trip client (bench/rtt/rtt.c), which `make bench` compiles.
    let rtt: String
    /// The C floor (bench/floor/floor.c), which `make bench` compiles.
    let floor: String
    /// A few rounds of everything, to try the benchmark itself out (`--quick`).
    let quick: Bool
    /// Only the round trips (`--round-trips-only`), so two builds can be run in turn, A B A B.
    var roundTripsOnly = false
    /// Round-trip rounds instead of the default (`--rounds N`).
    var rounds: Int?
    /// Only the sizes and the start-up rows (`--startup-only`), to try a change to start-up.
    var startupOnly = false
    /// Cold starts per binary instead of the default (`--startup-rounds N`).
    var startupRoundsOverride: Int?
    let root = FileManager.default.temporaryDirectory.appendingPathComponent("bench-daemon-\(getpid())").path
    let name = PetBus.name
    let path = PetBus.path
    /// The simulated instant the daemons start at: 50 minutes before a tick.
    static let benchNow = "2026-03-02T08:10:00Z"
    var now: String { Self.benchNow }

    func run() throws {
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: root) }
        let (address, busPID) = try startBus()
        defer { kill(busPID, SIGTERM) }
        setenv("DBUS_SESSION_BUS_ADDRESS", address, 1)
        let bus = try Connection(address: address)
        say("bench-daemon: \(daemon)")
        if !roundTripsOnly { sizes() }

        let (world, records) = Self.synthesize(days: 3652)
        let empty = root + "/empty"
        let tenYears = root + "/tenyears"
        try Self.prepare(empty, world: world, records: [])
        try Self.prepare(tenYears, world: world, records: records)
        say("stores: the same open day, with no history and with \(records.count) closed days (10 years)\n")
        if !roundTripsOnly { try startups(bus, empty: empty, tenYears: tenYears) }
        if startupOnly { return }

        let pid = try spawn([daemon, "--data-dir", tenYears, "--now", now, "--time-scale", "1"])
        try waitForName(bus, name)
        try roundTrips(bus)
        if roundTripsOnly {
            stop(pid)
            return
        }
        // petctl tray idles beside it: resident once a host has read its pixmap, then its wake-ups.
        let tray = try spawn([petctl, "tray"], quiet: true)
        usleep(500_000)
        _ = try? bus.getProperty(
            destination: "org.kde.StatusNotifierItem-\(tray)-1", path: "/StatusNotifierItem",
            interface: "org.kde.StatusNotifierItem", name: "IconPixmap")
        usleep(200_000)
        let trayResident = residentKiB(tray)
        // petctl watch, as a panel runs it, over the same idle minute.
        let watch = try spawn([petctl, "watch", "--format", "waybar"], quiet: true)
        usleep(500_000)
        let watchMemory = smapsRollup(watch)
        let watchBefore = contextSwitches(watch)
        let trayMemory = smapsRollup(tray)
        // And the interactive Today screen, in a tmux pane of its own (it needs a terminal).
        let socket = root + "/tmux"
        var status: Int32 = 0
        waitpid(
            try spawn(
                [
                    "/usr/bin/tmux", "-S", socket, "-f", "/dev/null", "new-session", "-d", "-x", "80", "-y", "24",
                    "exec '\(petctl)' today --interactive",
                ], quiet: true), &status, 0)
        usleep(700_000)
        let screenPid = tmuxPanePid(socket)
        let screenResident = screenPid.map(residentKiB) ?? 0
        let screenBefore = screenPid.map(contextSwitches) ?? 0
        // The tray's one-shot check for a tray host, 3 s after its start (this bus has none: it says
        // so once on stderr), is not idling: the idle minute starts after it (it read as 2 wake-ups).
        usleep(2_000_000)
        let before = contextSwitches(pid)
        let trayBefore = contextSwitches(tray)
        sleep(UInt32(idleSeconds))
        say("idle wake-ups over \(idleSeconds) s between ticks: \(contextSwitches(pid) - before) (target 0)\n")
        say(
            String(
                format: "petctl tray: resident after a host read its pixmap %.1f MiB (target <= 12), "
                    + "idle wake-ups over %d s: %d (target 0)\n", trayResident / 1024, idleSeconds,
                contextSwitches(tray) - trayBefore))
        say(
            String(
                format: "petctl tray: RSS %.1f, PSS %.1f, anonymous %.1f MiB (target RSS <= 8)\n",
                (trayMemory["Rss"] ?? 0) / 1024, (trayMemory["Pss"] ?? 0) / 1024, (trayMemory["Anonymous"] ?? 0) / 1024)
        )
        say(
            String(
                format: "petctl watch --format waybar: RSS %.1f, PSS %.1f, anonymous %.1f MiB (target RSS <= 8), "
                    + "idle wake-ups over %d s: %d (target 0)\n", (watchMemory["Rss"] ?? 0) / 1024,
                (watchMemory["Pss"] ?? 0) / 1024, (watchMemory["Anonymous"] ?? 0) / 1024, idleSeconds,
                contextSwitches(watch) - watchBefore))
        say(
            String(
                format: "petctl today --interactive: resident %.1f MiB (target <= 12), idle wake-ups over %d s: %d "
                    + "(target 0)\n", screenResident / 1024, idleSeconds,
                (screenPid.map(contextSwitches) ?? 0) - screenBefore))
        waitpid(try spawn(["/usr/bin/tmux", "-S", socket, "kill-server"], quiet: true), &status, 0)
        stop(watch)
        stop(tray)
        stop(pid)

        try entryChangedDelays(bus)
        try petctlRows(bus, petctl: petctl)
        try watchResident(bus, petctl: petctl)
    }

    /// Both shipped binaries' sizes as built and stripped (as `make install` installs them), and
    /// playerctld's.
    func sizes() {
        func megabytes(_ path: String) -> String {
            var info = stat()
            guard stat(path, &info) == 0 else { return "?" }
            let size = Double(info.st_size)
            return size < 1e6 ? String(format: "%.0f kB", size / 1e3) : String(format: "%.1f MB", size / 1e6)
        }
        for binary in [daemon, petctl] {
            let stripped = root + "/stripped"
            try? runToEnd(["/usr/bin/strip", "-o", stripped, binary])
            let name = URL(fileURLWithPath: binary).lastPathComponent
            say("size of \(name): \(megabytes(binary)) as built, \(megabytes(stripped)) stripped (target <= 16 MB)")
            unlink(stripped)
        }
        say("size of playerctld: \(megabytes("/usr/bin/playerctld")) (it links GLib dynamically)\n")
    }

    // MARK: helpers

    /// A private bus; `--fork` keeps the pipe open in the child, so the address goes through a file.
    func startBus() throws -> (String, pid_t) {
        let file = root + "/bus.txt"
        let sh = try spawn([
            "/bin/sh", "-c", "exec dbus-daemon --session --fork --nopidfile --print-address=1 --print-pid=1 > \"$1\"",
            "sh", file,
        ])
        var status: Int32 = 0
        waitpid(sh, &status, 0)
        let lines = ((try? String(contentsOfFile: file, encoding: .utf8)) ?? "").split(separator: "\n")
        guard lines.count >= 2, let pid = pid_t(lines[1]) else { throw DBusError.failed("dbus-daemon did not start") }
        return (String(lines[0]), pid)
    }

    /// Starts `argv` with stderr on /dev/null, and stdout there too when `quiet`, or into the file
    /// `output`; `environment` entries (`NAME=value`) are added to this process's environment.
    func spawn(_ argv: [String], quiet: Bool = false, output: String? = nil, environment: [String] = []) throws
        -> pid_t
    {
        var pid: pid_t = 0
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        if quiet { posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0) }
        if let output { posix_spawn_file_actions_addopen(&actions, 1, output, O_WRONLY | O_CREAT | O_TRUNC, 0o600) }
        var cargs = argv.map { strdup($0) } + [nil]
        defer { cargs.forEach { free($0) } }
        var inherited: [String] = []
        var e = environ
        while let entry = e.pointee {
            inherited.append(String(cString: entry))
            e += 1
        }
        let names = Set(environment.map { $0.prefix { $0 != "=" } })
        var cenv =
            (inherited.filter { !names.contains($0.prefix { $0 != "=" }) } + environment).map { strdup($0) } + [nil]
        defer { cenv.forEach { free($0) } }
        let rc = posix_spawn(&pid, argv[0], &actions, nil, &cargs, &cenv)
        guard rc == 0 else { throw DBusError.failed("cannot start \(argv[0]): \(String(cString: strerror(rc)))") }
        return pid
    }

    /// Runs `argv` to completion (output as `spawn` takes it); throws unless it exits 0.
    func runToEnd(_ argv: [String], output: String? = nil) throws {
        let pid = try spawn(argv, output: output)
        var status: Int32 = 0
        waitpid(pid, &status, 0)
        guard status == 0 else { throw DBusError.failed("\(argv.joined(separator: " ")) exited \(status)") }
    }

    func stop(_ pid: pid_t) {
        kill(pid, SIGTERM)
        var status: Int32 = 0
        waitpid(pid, &status, 0)
    }

    func waitForName(_ bus: Connection, _ name: String) throws {
        for _ in 0..<100_000 {
            let reply = try bus.call(
                destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus",
                interface: "org.freedesktop.DBus", member: "NameHasOwner", arguments: [.string(name)])
            if reply.first?.boolValue == true { return }
        }
        throw DBusError.failed("\(name) never appeared")
    }

    func residentKiB(_ pid: pid_t) -> Double {
        let status = (try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)) ?? ""
        let line = status.split(separator: "\n").first { $0.hasPrefix("VmRSS:") } ?? ""
        return Double(line.split(separator: " ").dropFirst().first ?? "0") ?? 0
    }

    /// The pid of the process in the only pane of the tmux server at `socket`.
    func tmuxPanePid(_ socket: String) -> pid_t? {
        let file = root + "/pane-pid"
        guard
            let pid = try? spawn(
                ["/usr/bin/tmux", "-S", socket, "display-message", "-p", "-t", "0", "#{pane_pid}"], output: file)
        else { return nil }
        var status: Int32 = 0
        waitpid(pid, &status, 0)
        let text = (try? String(contentsOfFile: file, encoding: .utf8)) ?? ""
        return pid_t(text.trimmingCharacters(in: .whitespacesAndNewlines))
    }

    /// Voluntary + involuntary context switches of every thread: each wake-up costs at least one.
    func contextSwitches(_ pid: pid_t) -> Int {
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? []
        return tasks.reduce(0) { sum, tid in
            let status = (try? String(contentsOfFile: "/proc/\(pid)/task/\(tid)/status", encoding: .utf8)) ?? ""
            return sum
                + status.split(separator: "\n").filter { $0.contains("ctxt_switches") }
                .compactMap { Int($0.split(separator: "\t").last ?? "") }.reduce(0, +)
        }
    }

    func monotonic() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
    }

    func median(_ xs: [Double]) -> Double { percentile(xs, 0.5) }

    func percentile(_ xs: [Double], _ p: Double) -> Double {
        let s = xs.sorted()
        return s.isEmpty ? 0 : s[min(s.count - 1, Int(Double(s.count - 1) * p))]
    }

    /// The median with the middle half and the whole range.
    func spread(_ what: String, _ xs: [Double], unit: String, scale: Double) -> String {
        String(
            format: "%@: median %.2f%@ (p25–p75 %.2f–%.2f, min–max %.2f–%.2f)", what, median(xs) * scale, unit,
            percentile(xs, 0.25) * scale, percentile(xs, 0.75) * scale, (xs.min() ?? 0) * scale,
            (xs.max() ?? 0) * scale)
    }

    func line(_ what: String, _ xs: [Double], unit: String = "ms", scale: Double = 1e3) -> String {
        String(
            format: "%@: p50 %.2f %@, p99 %.2f %@, min %.2f %@", what, percentile(xs, 0.5) * scale, unit,
            percentile(xs, 0.99) * scale, unit, (xs.min() ?? 0) * scale, unit)
    }
}
