import DBusKit
import Foundation
import Glibc
import PetBus
import PetCore

/// Round trips timed by the C client (bench/rtt/rtt.c): `GetWidgetEntry` and `GetPet` against the
/// routed `Peer.Ping` to the same daemon, playerctld's `Properties.GetAll`, the bus's `GetId`, and
/// the same entry answered by rtt's C server from a kept copy (the floor for that reply), in turn
/// within each round (A B C D … A B C D …).
extension DaemonBench {
    var rttRounds: Int { rounds ?? (quick ? 3 : 40) }
    static let rttCalls = 1000

    /// One target for rtt: label, destination, path, interface, member, one string argument or "-".
    typealias Target = [String]

    func roundTrips(_ bus: Connection) throws {
        let player = try spawn(["/usr/bin/playerctld"])
        defer { stop(player) }
        try waitForName(bus, "org.mpris.MediaPlayer2.playerctld")
        let floorName = "org.petprogress.bench.Floor"
        let floor = try spawn(
            [rtt, "--serve", floorName, name, path, PetBus.interface, PetBus.Methods.getWidgetEntry.name],
            quiet: true)
        defer { stop(floor) }
        try waitForName(bus, floorName)
        let ours = [name, path]
        // playerctld's own interface: the one it answers without a player to proxy.
        let targets: [Target] = [
            ["GetWidgetEntry"] + ours + [PetBus.interface, PetBus.Methods.getWidgetEntry.name, "-"],
            ["Ping"] + ours + ["org.freedesktop.DBus.Peer", "Ping", "-"],
            [
                "playerctld.GetAll", "org.mpris.MediaPlayer2.playerctld", "/org/mpris/MediaPlayer2",
                "org.freedesktop.DBus.Properties", "GetAll", "com.github.altdesktop.playerctld",
            ],
            ["bus.GetId", "org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus", "GetId", "-"],
            ["GetPet"] + ours + [PetBus.interface, PetBus.Methods.getPet.name, "-"],
            ["C.kept-entry", floorName, path, PetBus.interface, PetBus.Methods.getWidgetEntry.name, "-"],
        ]
        let entry = try bus.call(
            destination: name, path: path, interface: PetBus.interface, member: PetBus.Methods.getWidgetEntry.name
        ).first.map { try WidgetEntry(dbus: $0) }
        say(
            "the entry: \(entry?.tasksDone ?? 0) of \(entry?.tasksTotal ?? 0) tasks done, "
                + "\(entry?.upcoming.count ?? 0) upcoming records")
        let hitsBefore = cacheHits(bus)
        let file = root + "/rtt.txt"
        try runToEnd(
            [rtt, String(rttRounds), String(Self.rttCalls), "200"] + targets.flatMap { $0 }, output: file)
        let hits = cacheHits(bus).map { h in hitsBefore.map { h - $0 } ?? h }
        let rows = try parse(file)
        say(
            "round trips from the C client: \(rttRounds) rounds × \(Self.rttCalls) calls per target, "
                + "targets in turn within each round; per-round p50 and p99, median over rounds (p25–p75, min–max):")
        for target in targets.map(\.[0]) {
            let r = rows[target] ?? []
            say(spread("  \(target) p50", r.map(\.p50), unit: " µs", scale: 1e-3))
            say(spread("  \(target) p99", r.map(\.p99), unit: " µs", scale: 1e-3))
        }
        func p50s(_ label: String) -> [Double] { (rows[label] ?? []).map(\.p50) }
        say(ratios("GetWidgetEntry / Ping (same daemon), p50", p50s("GetWidgetEntry"), p50s("Ping"), target: "<= 1.10"))
        say(
            ratios(
                "GetWidgetEntry / playerctld GetAll, p50", p50s("GetWidgetEntry"), p50s("playerctld.GetAll"),
                target: "<= 1.0"))
        say(
            ratios(
                "GetWidgetEntry / the same reply from rtt's C server, p50", p50s("GetWidgetEntry"),
                p50s("C.kept-entry"),
                target: "—"))
        say(ratios("GetPet / Ping (same daemon), p50", p50s("GetPet"), p50s("Ping"), target: "<= 1.10"))
        say(ratios("Ping (daemon) / bus GetId, p50", p50s("Ping"), p50s("bus.GetId"), target: "—"))
        let calls = 2 * (rttRounds * Self.rttCalls + 200)
        say("reply cache hits during the round trips: \(hits.map(String.init) ?? "not reported") of \(calls) calls\n")
    }

    /// rtt's lines, `LABEL ROUND P50 P99 MIN` in nanoseconds, by label.
    func parse(_ file: String) throws -> [String: [(p50: Double, p99: Double)]] {
        let text = try String(contentsOfFile: file, encoding: .utf8)
        var rows: [String: [(p50: Double, p99: Double)]] = [:]
        for line in text.split(separator: "\n") {
            let w = line.split(separator: " ")
            guard w.count == 5, let p50 = Double(w[2]), let p99 = Double(w[3]) else { continue }
            rows[String(w[0]), default: []].append((p50, p99))
        }
        return rows
    }

    /// `entry_cache_hits` from `GetStatus`, if the daemon reports it.
    func cacheHits(_ bus: Connection) -> Int? {
        let reply = try? bus.call(
            destination: name, path: path, interface: PetBus.interface, member: PetBus.Methods.getStatus.name)
        return reply?.first?.vardictValue?["reply_cache_hits"]?.uint64Value.map(Int.init)
    }
}
