import DBusKit
import Foundation
import Glibc
import LinuxKit
import PetBus
import PetCore
import PetStore

/// The figures of issue 6's benchmark, printed with their targets. Not a test: nothing here fails.
struct DaemonBench {
    let daemon: String
    let petctl: String
    let idleSeconds: Int
    let root = FileManager.default.temporaryDirectory.appendingPathComponent("bench-daemon-\(getpid())").path
    let name = PetBus.name
    let path = PetBus.path
    let now = "2026-03-02T08:10:00Z"

    func run() throws {
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: root) }
        let (address, busPID) = try startBus()
        defer { kill(busPID, SIGTERM) }
        setenv("DBUS_SESSION_BUS_ADDRESS", address, 1)
        let bus = try Connection(address: address)
        let data = root + "/data"
        let days = try prepareHistory(data)
        say("bench-daemon: \(daemon)")
        say("store: \(days) days of history (one year)\n")

        sizes()
        let ours = [daemon, "--data-dir", data, "--now", now]
        let (mine, theirs) = try interleavedStartups(bus, ours: ours, rounds: startupRounds)
        say("\(startupRounds) cold starts each, interleaved (petprogressd, playerctld, petprogressd, …):")
        say(spread("start-up petprogressd (exec → name owned)", mine.map(\.seconds), unit: "ms", scale: 1e3))
        say(spread("start-up playerctld   (exec → name owned)", theirs.map(\.seconds), unit: "ms", scale: 1e3))
        say(
            spread("start-up ratio, run by run", zip(mine, theirs).map { $0.seconds / $1.seconds }, unit: "", scale: 1)
                + String(
                    format: "; of the medians %.2f (target <= 1.0)",
                    median(mine.map(\.seconds)) / median(theirs.map(\.seconds))))
        say(spread("resident after start-up, petprogressd", mine.map(\.rssKiB), unit: "MiB", scale: 1.0 / 1024))
        say(spread("resident after start-up, playerctld  ", theirs.map(\.rssKiB), unit: "MiB", scale: 1.0 / 1024))
        say(
            spread("resident ratio, run by run", zip(mine, theirs).map { $0.rssKiB / $1.rssKiB }, unit: "", scale: 1)
                + String(
                    format: "; of the medians %.2f (target <= 2.0)\n",
                    median(mine.map(\.rssKiB)) / median(theirs.map(\.rssKiB))))

        let pid = try spawn([daemon, "--data-dir", data, "--now", now, "--time-scale", "1"])
        try waitForName(bus, name)
        let entry = try roundTrips(
            bus, member: PetBus.Method.getWidgetEntry.rawValue, destination: name, path: path,
            interface: PetBus.interface)
        let getID = try roundTrips(
            bus, member: "GetId", destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus",
            interface: "org.freedesktop.DBus")
        let ping = try roundTrips(
            bus, member: "Ping", destination: name, path: path, interface: "org.freedesktop.DBus.Peer")
        say(line("GetWidgetEntry round trip", entry, unit: "µs", scale: 1e6))
        say(line("bus GetId round trip     ", getID, unit: "µs", scale: 1e6))
        say(line("Peer.Ping to the daemon (routed; libdbus answers, no handler)", ping, unit: "µs", scale: 1e6))
        let player = try spawn(["/usr/bin/playerctld"])
        try waitForName(bus, "org.mpris.MediaPlayer2.playerctld")
        let playerPing = try roundTrips(
            bus, member: "Ping", destination: "org.mpris.MediaPlayer2.playerctld",
            path: "/org/mpris/MediaPlayer2", interface: "org.freedesktop.DBus.Peer")
        stop(player)
        say(line("Peer.Ping to playerctld (routed, for reference)", playerPing, unit: "µs", scale: 1e6))
        say(
            String(
                format: "ratio p50: %.2f, p99: %.2f (target <= 1.3)\n",
                percentile(entry, 0.5) / percentile(getID, 0.5), percentile(entry, 0.99) / percentile(getID, 0.99)))

        let before = contextSwitches(pid)
        sleep(UInt32(idleSeconds))
        say("idle wake-ups over \(idleSeconds) s between ticks: \(contextSwitches(pid) - before) (target 0)\n")
        stop(pid)

        try petctlRows(bus, petctl: petctl)
        try watchResident(bus, petctl: petctl)

        let delays = try (0..<3).map { _ in try entryChangedDelay(bus) }
        say(
            line("EntryChanged after the top of the hour (upper bound)", delays, unit: "ms", scale: 1e3)
                + " (target <= 50 ms)")
    }

    // MARK: measurements

    /// Cold starts per binary: enough for a median with a spread (issue 11: at least 30).
    let startupRounds = 40

    /// One cold start: spawn, wait until the name is owned, read RSS, SIGTERM.
    func startup(_ bus: Connection, _ argv: [String], name: String) throws -> (seconds: Double, rssKiB: Double) {
        let t0 = monotonic()
        let pid = try spawn(argv)
        try waitForName(bus, name)
        let seconds = monotonic() - t0
        let rss = residentKiB(pid)
        stop(pid)
        return (seconds, rss)
    }

    /// Cold starts of the daemon and playerctld taken in turn (A B A B …), so that whatever else the
    /// machine does at a moment weighs on both alike.
    func interleavedStartups(_ bus: Connection, ours: [String], rounds: Int) throws
        -> (ours: [(seconds: Double, rssKiB: Double)], theirs: [(seconds: Double, rssKiB: Double)])
    {
        var mine: [(seconds: Double, rssKiB: Double)] = []
        var theirs: [(seconds: Double, rssKiB: Double)] = []
        for _ in 0..<rounds {
            mine.append(try startup(bus, ours, name: name))
            theirs.append(try startup(bus, ["/usr/bin/playerctld"], name: "org.mpris.MediaPlayer2.playerctld"))
        }
        return (mine, theirs)
    }

    /// The shipped daemon's size as built and stripped (as `make install` installs it), and playerctld's.
    func sizes() {
        let stripped = root + "/petprogressd.stripped"
        let strip = try? spawn(["/usr/bin/strip", "-o", stripped, daemon])
        var status: Int32 = 0
        if let strip { waitpid(strip, &status, 0) }
        func megabytes(_ path: String) -> String {
            var info = stat()
            guard stat(path, &info) == 0 else { return "?" }
            let size = Double(info.st_size)
            return size < 1e6 ? String(format: "%.0f kB", size / 1e3) : String(format: "%.1f MB", size / 1e6)
        }
        say(
            "binary sizes: petprogressd \(megabytes(daemon)) as built, \(megabytes(stripped)) stripped (target <= 16 MB);"
                + " playerctld \(megabytes("/usr/bin/playerctld")) (it links GLib dynamically)\n")
    }

    func roundTrips(_ bus: Connection, member: String, destination: String, path: String, interface: String) throws
        -> [Double]
    {
        for _ in 0..<200 {
            _ = try bus.call(destination: destination, path: path, interface: interface, member: member)
        }
        return try (0..<5000).map { _ in
            let t0 = monotonic()
            _ = try bus.call(destination: destination, path: path, interface: interface, member: member)
            return monotonic() - t0
        }
    }

    /// Starts the daemon one second before a simulated top of the hour; the delay from that
    /// second to EntryChanged's arrival includes the daemon's start-up, so it is an upper bound.
    func entryChangedDelay(_ bus: Connection) throws -> Double {
        let loop = EventLoop()
        try loop.add(bus)
        defer { loop.remove(bus) }
        var arrived: Double?
        let sub = try bus.subscribe(MatchRule(interface: name, member: "EntryChanged")) { _ in arrived = monotonic() }
        defer { try? bus.unsubscribe(sub) }
        let dir = root + "/tick-\(UUID().uuidString)"
        let t0 = monotonic()
        let pid = try spawn([daemon, "--data-dir", dir, "--now", "2026-03-02T08:59:59Z", "--time-scale", "1"])
        defer { stop(pid) }
        guard loop.run(until: { arrived != nil }, timeout: .seconds(10)), let arrived else {
            throw DBusError.failed("no EntryChanged within 10 s")
        }
        return arrived - (t0 + 1)
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

    /// Starts `argv` with stderr on /dev/null (and stdout too when `quiet`).
    func spawn(_ argv: [String], quiet: Bool = false) throws -> pid_t {
        var pid: pid_t = 0
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        if quiet { posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0) }
        var cargs = argv.map { strdup($0) } + [nil]
        defer { cargs.forEach { free($0) } }
        let rc = posix_spawn(&pid, argv[0], &actions, nil, &cargs, environ)
        guard rc == 0 else { throw DBusError.failed("cannot start \(argv[0]): \(String(cString: strerror(rc)))") }
        return pid
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

    /// A year of closed days before `now`, written through the real store.
    func prepareHistory(_ dir: String) throws -> Int {
        let end = ISO8601DateFormatter().date(from: now).map { Instant($0.timeIntervalSince1970) } ?? 0
        var t = end - 365 * 86_400
        var world = PetWorld(now: t, zone: .utc)
        var records: [DayRecord] = []
        while true {
            let ctx = Context(now: t, zone: .utc)
            for n in 0..<6 {
                let id = try? world.addTask(title: "Task \(n) of a busy day", time: "\(10 + n):30", ctx)
                if n % 3 != 2, let id {
                    _ = try? world.markDone(id: id, Context(now: t + Instant(3 + n) * 3600, zone: .utc))
                }
            }
            t += 86_400
            guard t < end else { break }
            records += world.closeDueDays(Context(now: t, zone: .utc)).compactMap(\.record)
        }
        let store = try PetStore.open(directory: dir)
        _ = try store.load(now: end)
        try store.commitCloseouts(records, world: world)
        store.close()
        return records.count
    }

    func residentKiB(_ pid: pid_t) -> Double {
        let status = (try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)) ?? ""
        let line = status.split(separator: "\n").first { $0.hasPrefix("VmRSS:") } ?? ""
        return Double(line.split(separator: " ").dropFirst().first ?? "0") ?? 0
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
