import Foundation
import Glibc

// bench-daemon: petprogressd against playerctld and the bus itself, on a private bus.
// Usage: swift run -c release --static-swift-stdlib bench-daemon [--daemon PATH] [--petctl PATH] [--rtt PATH] [--floor PATH] [--idle-seconds N] [--quick]
//        [--round-trips-only] [--rounds N] [--startup-only] [--startup-rounds N]
//        bench-daemon --write-stores DIR   (only writes DIR/empty and DIR/tenyears, the stores it starts on)
var arguments = CommandLine.arguments.dropFirst()
var daemonPath = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent(
    "petprogressd"
).path
var petctlPath = URL(fileURLWithPath: daemonPath).deletingLastPathComponent().appendingPathComponent("petctl").path
var idleSeconds = 60
var quick = false
var roundTripsOnly = false
var rounds: Int?
var startupOnly = false
var writeStores: String?
var startupRounds: Int?
var rttPath = URL(fileURLWithPath: daemonPath).deletingLastPathComponent().appendingPathComponent("rtt").path
var floorPath = URL(fileURLWithPath: daemonPath).deletingLastPathComponent().appendingPathComponent("floor").path
while let a = arguments.popFirst() {
    switch a {
    case "--daemon": daemonPath = arguments.popFirst() ?? daemonPath
    case "--petctl": petctlPath = arguments.popFirst() ?? petctlPath
    case "--idle-seconds": idleSeconds = Int(arguments.popFirst() ?? "") ?? idleSeconds
    case "--rtt": rttPath = arguments.popFirst() ?? rttPath
    case "--floor": floorPath = arguments.popFirst() ?? floorPath
    case "--quick": quick = true
    case "--startup-only": startupOnly = true
    case "--write-stores": writeStores = arguments.popFirst()
    case "--startup-rounds": startupRounds = Int(arguments.popFirst() ?? "")
    case "--round-trips-only": roundTripsOnly = true
    case "--rounds": rounds = Int(arguments.popFirst() ?? "")
    default:
        say(
            "usage: bench-daemon [--daemon PATH] [--petctl PATH] [--rtt PATH] [--floor PATH] [--idle-seconds N] [--quick] "
                + "[--round-trips-only] [--rounds N] [--startup-only] [--startup-rounds N]"
        )
        exit(64)
    }
}
if let writeStores {
    do {
        let (world, records) = DaemonBench.synthesize(days: 3652)
        try DaemonBench.prepare(writeStores + "/empty", world: world, records: [])
        try DaemonBench.prepare(writeStores + "/tenyears", world: world, records: records)
        say("\(writeStores)/empty, \(writeStores)/tenyears: start with --now \(DaemonBench.benchNow)")
        exit(0)
    } catch {
        say("bench-daemon: \(error)")
        exit(1)
    }
}
do {
    try DaemonBench(
        daemon: daemonPath, petctl: petctlPath, idleSeconds: idleSeconds, rtt: rttPath, floor: floorPath, quick: quick,
        roundTripsOnly: roundTripsOnly, rounds: rounds, startupOnly: startupOnly, startupRoundsOverride: startupRounds
    ).run()
} catch {
    say("bench-daemon: \(error)")
    exit(1)
}

/// One line to stdout, unbuffered, so figures appear as they are measured even into a file.
func say(_ line: String) {
    let text = line + "\n"
    _ = text.withCString { write(1, $0, strlen($0)) }
}
