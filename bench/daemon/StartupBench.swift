import DBusKit
import Foundation
import Glibc

/// Start-up (exec → name owned) and resident memory: petprogressd on an empty store, on 10 years
/// of history, playerctld, and the C floor (bench/floor/floor.c: libdbus, connect, own a name, serve
/// `Ping`), in turn (A B C D A B C D …), so a busy moment weighs on all four. Memory three ways
/// (/proc/PID/smaps_rollup): RSS counts every resident page, shared file pages too (libc,
/// libdbus, the page cache's copy of the binary); PSS divides each shared page among its mappers;
/// anonymous is the process's own heap, stacks and written data.
extension DaemonBench {
    /// Cold starts per binary: at least 30 for a median with a spread; 150, because on a shared
    /// machine the run-by-run ratio of two ~5 ms start-ups spreads ±30 %. `--startup-rounds N`.
    var startupRounds: Int { startupRoundsOverride ?? (quick ? 3 : 150) }

    struct Start {
        var seconds: Double
        var rssKiB: Double
        var pssKiB: Double
        var anonKiB: Double
        /// CPU time the process has run until its name was owned (/proc/PID/schedstat), which a
        /// loaded machine stretches far less than the wall time; and its page faults (/proc/PID/stat).
        var cpuSeconds: Double
        var faults: Double
    }

    func startups(_ bus: Connection, empty: String, tenYears: String) throws {
        let floorName = "org.example.PetProgressFloor"
        var a: [Start] = []
        var b: [Start] = []
        var c: [Start] = []
        var d: [Start] = []
        for _ in 0..<startupRounds {
            a.append(try startup(bus, [daemon, "--data-dir", empty, "--now", now], name: name))
            b.append(try startup(bus, [daemon, "--data-dir", tenYears, "--now", now], name: name))
            c.append(try startup(bus, ["/usr/bin/playerctld"], name: "org.mpris.MediaPlayer2.playerctld"))
            d.append(try startup(bus, [floor, floorName], name: floorName))
        }
        say("\(startupRounds) cold starts each, interleaved (empty store, 10 years, playerctld, C floor, …):")
        say(spread("start-up, empty store   ", a.map(\.seconds), unit: " ms", scale: 1e3))
        say(spread("start-up, 10 years      ", b.map(\.seconds), unit: " ms", scale: 1e3))
        say(spread("start-up, playerctld    ", c.map(\.seconds), unit: " ms", scale: 1e3))
        say(spread("start-up, C floor       ", d.map(\.seconds), unit: " ms", scale: 1e3))
        say(ratios("start-up 10 years / empty", b.map(\.seconds), a.map(\.seconds), target: "<= 1.05"))
        say(ratios("start-up empty / playerctld", a.map(\.seconds), c.map(\.seconds), target: "<= 1.0"))
        say(ratios("start-up 10 years / playerctld", b.map(\.seconds), c.map(\.seconds), target: "<= 1.0"))
        say(ratios("start-up 10 years / C floor", b.map(\.seconds), d.map(\.seconds), target: "<= 2.0"))
        say(ratios("start-up playerctld / C floor", c.map(\.seconds), d.map(\.seconds), target: "-"))
        say(spread("CPU to name, empty store", a.map(\.cpuSeconds), unit: " ms", scale: 1e3))
        say(spread("CPU to name, 10 years   ", b.map(\.cpuSeconds), unit: " ms", scale: 1e3))
        say(spread("CPU to name, playerctld ", c.map(\.cpuSeconds), unit: " ms", scale: 1e3))
        say(spread("CPU to name, C floor    ", d.map(\.cpuSeconds), unit: " ms", scale: 1e3))
        say(ratios("CPU 10 years / playerctld", b.map(\.cpuSeconds), c.map(\.cpuSeconds), target: "-"))
        say(ratios("CPU 10 years / C floor", b.map(\.cpuSeconds), d.map(\.cpuSeconds), target: "-"))
        say(spread("page faults, 10 years   ", b.map(\.faults), unit: "", scale: 1))
        say(spread("page faults, playerctld ", c.map(\.faults), unit: "", scale: 1))
        say(spread("page faults, C floor    ", d.map(\.faults), unit: "", scale: 1))
        for (what, value) in [("RSS", \Start.rssKiB), ("PSS", \Start.pssKiB), ("anonymous", \Start.anonKiB)] {
            let label = what.padding(toLength: 9, withPad: " ", startingAt: 0)
            say(spread("\(label), empty store  ", a.map { $0[keyPath: value] }, unit: " MiB", scale: 1.0 / 1024))
            say(spread("\(label), 10 years     ", b.map { $0[keyPath: value] }, unit: " MiB", scale: 1.0 / 1024))
            say(spread("\(label), playerctld   ", c.map { $0[keyPath: value] }, unit: " MiB", scale: 1.0 / 1024))
            say(spread("\(label), C floor      ", d.map { $0[keyPath: value] }, unit: " MiB", scale: 1.0 / 1024))
            say(
                ratios(
                    "\(what) 10 years / playerctld", b.map { $0[keyPath: value] }, c.map { $0[keyPath: value] },
                    target: what == "RSS" ? "<= 1.5" : "-"))
            say(
                ratios(
                    "\(what) 10 years / C floor", b.map { $0[keyPath: value] }, d.map { $0[keyPath: value] },
                    target: "-"))
        }
        say("")
    }

    /// One cold start: spawn, wait until the name is owned, read its memory, SIGTERM.
    func startup(_ bus: Connection, _ argv: [String], name: String) throws -> Start {
        let t0 = monotonic()
        let pid = try spawn(argv)
        try waitForName(bus, name)
        let seconds = monotonic() - t0
        let memory = smapsRollup(pid)
        let (cpu, faults) = cpuAndFaults(pid)
        stop(pid)
        return Start(
            seconds: seconds, rssKiB: memory["Rss"] ?? 0, pssKiB: memory["Pss"] ?? 0,
            anonKiB: memory["Anonymous"] ?? 0, cpuSeconds: cpu, faults: faults)
    }

    /// CPU seconds run (every thread: /proc/PID/schedstat's first field is the main thread's, so
    /// the task directory is summed) and minor + major page faults (/proc/PID/stat fields 10, 12).
    func cpuAndFaults(_ pid: pid_t) -> (Double, Double) {
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? []
        var ns = 0.0
        for tid in tasks {
            let text = (try? String(contentsOfFile: "/proc/\(pid)/task/\(tid)/schedstat", encoding: .utf8)) ?? ""
            ns += Double(text.split(separator: " ").first ?? "0") ?? 0
        }
        let stat = (try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)) ?? ""
        // After the command in parentheses: field 3 is the state, so field N is at N - 3.
        let fields = stat.split(separator: ")").last?.split(separator: " ") ?? []
        let faults = fields.count > 9 ? (Double(fields[7]) ?? 0) + (Double(fields[9]) ?? 0) : 0
        return (ns / 1e9, faults)
    }

    /// /proc/PID/smaps_rollup as `field: kB`.
    func smapsRollup(_ pid: pid_t) -> [String: Double] {
        let text = (try? String(contentsOfFile: "/proc/\(pid)/smaps_rollup", encoding: .utf8)) ?? ""
        var fields: [String: Double] = [:]
        for line in text.split(separator: "\n") {
            let words = line.split(separator: " ", omittingEmptySubsequences: true)
            guard words.count >= 2, words[0].hasSuffix(":"), let kB = Double(words[1]) else { continue }
            fields[String(words[0].dropLast())] = kB
        }
        return fields
    }

    /// `mine / theirs`: run by run (median and middle half: the figure the targets are read on),
    /// of the medians, and of the minima (the runs least disturbed by other work on the machine).
    func ratios(_ what: String, _ mine: [Double], _ theirs: [Double], target: String) -> String {
        let each = zip(mine, theirs).map { $0 / $1 }
        return String(
            format:
                "%@: run by run median %.3f (p25–p75 %.3f–%.3f; target %@); of the medians %.3f, of the minima %.3f",
            what, median(each), percentile(each, 0.25), percentile(each, 0.75), target, median(mine) / median(theirs),
            (mine.min() ?? 0) / (theirs.min() ?? 1))
    }
}
