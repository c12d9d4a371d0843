import DBusKit
import Glibc

/// Start-up (exec → name owned) and resident memory: petprogressd on an empty store, on 10 years
/// of history, and playerctld, in turn (A B C A B C …), so a busy moment weighs on all three.
extension DaemonBench {
    /// Cold starts per binary: at least 30 for a median with a spread; 150, because on a shared
    /// machine the run-by-run ratio of two ~5 ms start-ups spreads ±30 %.
    var startupRounds: Int { quick ? 3 : 150 }

    typealias Start = (seconds: Double, rssKiB: Double)

    func startups(_ bus: Connection, empty: String, tenYears: String) throws {
        var a: [Start] = []
        var b: [Start] = []
        var c: [Start] = []
        for _ in 0..<startupRounds {
            a.append(try startup(bus, [daemon, "--data-dir", empty, "--now", now], name: name))
            b.append(try startup(bus, [daemon, "--data-dir", tenYears, "--now", now], name: name))
            c.append(try startup(bus, ["/usr/bin/playerctld"], name: "org.mpris.MediaPlayer2.playerctld"))
        }
        say("\(startupRounds) cold starts each, interleaved (empty store, 10 years, playerctld, …):")
        say(spread("start-up, empty store   ", a.map(\.seconds), unit: " ms", scale: 1e3))
        say(spread("start-up, 10 years      ", b.map(\.seconds), unit: " ms", scale: 1e3))
        say(spread("start-up, playerctld    ", c.map(\.seconds), unit: " ms", scale: 1e3))
        say(ratios("start-up 10 years / empty", b.map(\.seconds), a.map(\.seconds), target: "<= 1.05"))
        say(ratios("start-up empty / playerctld", a.map(\.seconds), c.map(\.seconds), target: "<= 1.0"))
        say(ratios("start-up 10 years / playerctld", b.map(\.seconds), c.map(\.seconds), target: "<= 1.0"))
        say(spread("resident, empty store   ", a.map(\.rssKiB), unit: " MiB", scale: 1.0 / 1024))
        say(spread("resident, 10 years      ", b.map(\.rssKiB), unit: " MiB", scale: 1.0 / 1024))
        say(spread("resident, playerctld    ", c.map(\.rssKiB), unit: " MiB", scale: 1.0 / 1024))
        say(ratios("resident 10 years / playerctld", b.map(\.rssKiB), c.map(\.rssKiB), target: "<= 2.0") + "\n")
    }

    /// One cold start: spawn, wait until the name is owned, read RSS, SIGTERM.
    func startup(_ bus: Connection, _ argv: [String], name: String) throws -> Start {
        let t0 = monotonic()
        let pid = try spawn(argv)
        try waitForName(bus, name)
        let seconds = monotonic() - t0
        let rss = residentKiB(pid)
        stop(pid)
        return (seconds, rss)
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
