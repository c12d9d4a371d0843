import DBusKit
import Glibc
import PetBus

/// petctl's figures (docs/BENCHMARKS.md, "petctl"): `petctl today`, `petctl widget --format waybar`
/// and `petctl done` against `busctl --user call` of the members they stand for, run interleaved (A
/// B A B …): wall time from spawn to exit, and peak resident memory.
extension DaemonBench {
    func petctlRows(_ bus: Connection, petctl: String) throws {
        let runs = quick ? 3 : 40
        let pid = try spawn([daemon, "--data-dir", root + "/petctl-data", "--now", now])
        defer { stop(pid) }
        try waitForName(bus, name)
        // A day as a person plans it, for the screens: eight tasks, 10:30 to 17:30.
        try addTasks(bus, count: 8, time: { "1\($0):30" })
        let busctl = ["/usr/bin/busctl", "--user", "call", name, path, PetBus.interface]
        let entry = busctl + [PetBus.Methods.getWidgetEntry.name]
        try compare(runs, "petctl today", [petctl, "today"], "busctl GetWidgetEntry", entry)
        try compare(
            runs, "petctl widget --format waybar", [petctl, "widget", "--format", "waybar"], "busctl GetWidgetEntry",
            entry)
        // Enough pending tasks for every `done` of both tools (and `time`'s runs), none overdue.
        try addTasks(bus, count: 2 * runs + 20, time: { _ in "20:00" })
        try compare(
            runs, "petctl done", [petctl, "done"], "busctl MarkNextDone", busctl + [PetBus.Methods.markNextDone.name]
        )
    }

    private func addTasks(_ bus: Connection, count: Int, time: (Int) -> String) throws {
        for n in 0..<count {
            _ = try bus.call(
                destination: name, path: path, interface: PetBus.interface, member: PetBus.Methods.addTask.name,
                arguments: [.string("Task \(n)"), .string(time(n))])
        }
    }

    /// `ourArgv` against `theirArgv`, interleaved, medians and their ratio.
    private func compare(_ runs: Int, _ ours: String, _ ourArgv: [String], _ theirs: String, _ theirArgv: [String])
        throws
    {
        var a: [Double] = []
        var b: [Double] = []
        for _ in 0..<runs {
            a.append(try timedRun(ourArgv))
            b.append(try timedRun(theirArgv))
        }
        say(line(ours + " (spawn → exit)", a) + String(format: ", peak RSS %.1f MiB", try peakKiB(ourArgv) / 1024))
        say(line(theirs + " (spawn → exit)", b) + String(format: ", peak RSS %.1f MiB", try peakKiB(theirArgv) / 1024))
        say(
            String(
                format: "ratio (medians of %d interleaved runs each): %.2f (target <= 1.0)\n", runs,
                median(a) / median(b)))
    }

    /// `petctl watch`'s resident memory once it has printed its first line and waits.
    func watchResident(_ bus: Connection, petctl: String) throws {
        let pid = try spawn([daemon, "--data-dir", root + "/watch-data", "--now", now])
        defer { stop(pid) }
        try waitForName(bus, name)
        let watch = try spawn([petctl, "watch", "--format", "waybar"], quiet: true)
        defer { stop(watch) }
        usleep(500_000)
        say(
            String(
                format: "petctl watch --format waybar, resident while waiting: %.1f MiB\n", residentKiB(watch) / 1024))
    }

    /// Runs `argv` to completion with stdout and stderr on /dev/null: wall seconds.
    func timedRun(_ argv: [String]) throws -> Double {
        let t0 = monotonic()
        let pid = try spawn(argv, quiet: true)
        var status: Int32 = 0
        waitpid(pid, &status, 0)
        let elapsed = monotonic() - t0
        guard status == 0 else { throw DBusError.failed("\(argv.joined(separator: " ")) exited \(status)") }
        return elapsed
    }

    /// The median peak resident memory of 5 runs, in KiB, as GNU time reports it. (Not from our own
    /// wait4: a child spawned from this process starts in its address space, and Linux carries that
    /// high-water mark across exec; time(1) is small, so what it forks starts small.)
    func peakKiB(_ argv: [String]) throws -> Double {
        let file = root + "/maxrss"
        let runs = try (0..<5).map { _ in
            let pid = try spawn(["/usr/bin/time", "-f", "%M", "-o", file] + argv, quiet: true)
            var status: Int32 = 0
            waitpid(pid, &status, 0)
            return Double((try? String(contentsOfFile: file, encoding: .utf8))?.split(separator: "\n").last ?? "") ?? 0
        }
        return median(runs)
    }
}
