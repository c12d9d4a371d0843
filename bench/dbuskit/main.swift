// dbuskit-bench: DBusKit's method round trip and the delay of a signal sent from a timerfd, against a
// private dbus-daemon and dbuskit-testservice. Build with -c release; see docs/BENCHMARKS.md.
import DBusKit
import Foundation

let calls = Int(CommandLine.arguments.dropFirst().first ?? "") ?? 20_000
let signals = 200
do {
    let bench = try Bench()
    defer { bench.finish() }
    bench.report("EchoString(\"x\") round trip", try bench.roundTrips(calls, member: "EchoString", [.string("x")]))
    bench.report("Echo(a{sv}, 16 keys) round trip", try bench.roundTrips(calls, member: "Echo", [Bench.record]))
    bench.report("Peer.Ping round trip", try bench.pings(calls))
    bench.report("timerfd → Tick signal delay (due → received)", try bench.timerSignalDelays(signals))
} catch {
    print("dbuskit-bench: \(error)")
    exit(1)
}
