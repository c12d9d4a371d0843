import DBusKit
import Glibc
import PetBus

/// Issue 12's figures: `petctl today` and `petctl done` against `busctl --user call` of the same
/// members, run interleaved (A B A B …), wall time from spawn to exit and peak resident memory.
extension DaemonBench {
    func petctlRows(_ bus: Connection, petctl: String, runs: Int = 40) throws {
        let pid = try spawn([daemon, "--data-dir", root + "/petctl-data", "--now", now])
        defer { stop(pid) }
        try waitForName(bus, name)
        // Enough pending tasks for every `done` of both tools, far from now so none is overdue.
        for n in 0..<(2 * runs + 10) {
            _ = try bus.call(
                destination: name, path: path, interface: PetBus.interface, member: PetBus.Method.addTask.rawValue,
                arguments: [.string("Task \(n)"), .string("20:00")])
        }
        let busctl = ["/usr/bin/busctl", "--user", "call", name, path, PetBus.interface]
        let pairs: [(String, [String], String, [String])] = [
            (
                "petctl today", [petctl, "today"], "busctl GetWidgetEntry",
                busctl + [PetBus.Method.getWidgetEntry.rawValue]
            ),
            (
                "petctl done ", [petctl, "done"], "busctl MarkNextDone  ",
                busctl + [PetBus.Method.markNextDone.rawValue]
            ),
        ]
        for (ours, ourArgv, theirs, theirArgv) in pairs {
            var a: [Double] = []
            var b: [Double] = []
            for _ in 0..<runs {
                a.append(try timedRun(ourArgv))
                b.append(try timedRun(theirArgv))
            }
            say(line(ours + " (spawn → exit)", a) + String(format: ", peak RSS %.1f MiB", try peakKiB(ourArgv) / 1024))
            say(
                line(theirs + " (spawn → exit)", b)
                    + String(format: ", peak RSS %.1f MiB", try peakKiB(theirArgv) / 1024))
            say(
                String(
                    format: "ratio (medians of %d interleaved runs each): %.2f (target <= 1.0)\n", runs,
                    median(a) / median(b)))
        }
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
