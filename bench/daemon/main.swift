import Foundation
import Glibc

// bench-daemon: petprogressd against playerctld and the bus itself, on a private bus.
// Usage: swift run -c release --static-swift-stdlib bench-daemon [--daemon PATH] [--petctl PATH] [--rtt PATH] [--idle-seconds N] [--quick]
//        [--round-trips-only] [--rounds N]
var arguments = CommandLine.arguments.dropFirst()
var daemonPath = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent(
    "petprogressd"
).path
var petctlPath = URL(fileURLWithPath: daemonPath).deletingLastPathComponent().appendingPathComponent("petctl").path
var idleSeconds = 60
var quick = false
var roundTripsOnly = false
var rounds: Int?
var rttPath = URL(fileURLWithPath: daemonPath).deletingLastPathComponent().appendingPathComponent("rtt").path
while let a = arguments.popFirst() {
    switch a {
    case "--daemon": daemonPath = arguments.popFirst() ?? daemonPath
    case "--petctl": petctlPath = arguments.popFirst() ?? petctlPath
    case "--idle-seconds": idleSeconds = Int(arguments.popFirst() ?? "") ?? idleSeconds
    case "--rtt": rttPath = arguments.popFirst() ?? rttPath
    case "--quick": quick = true
    case "--round-trips-only": roundTripsOnly = true
    case "--rounds": rounds = Int(arguments.popFirst() ?? "")
    default:
        say(
            "usage: bench-daemon [--daemon PATH] [--petctl PATH] [--rtt PATH] [--idle-seconds N] [--quick] [--round-trips-only] [--rounds N]"
        )
        exit(64)
    }
}
do {
    try DaemonBench(
        daemon: daemonPath, petctl: petctlPath, idleSeconds: idleSeconds, rtt: rttPath, quick: quick,
        roundTripsOnly: roundTripsOnly, rounds: rounds
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
