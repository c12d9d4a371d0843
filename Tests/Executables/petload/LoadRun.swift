import DBusKit
import Glibc

/// `petload load`: the mixed run, then measured rounds of reads against pings and mutations
/// against the write floor, then the final checks. `petload crash`: the mixed run (no property
/// sets) until the stop file appears, tolerant of a daemon killed under it, then the final checks.
struct LoadRun {
    let options: Options
    let clients: [LoadClient]
    let probe: LoadClient
    let baseline: UInt64

    init(_ options: Options) throws {
        self.options = options
        let frame = try options.frame()
        let address = try options.string("address")
        let seed = UInt64(try options.int("seed"))
        let tolerant = options.mode == "crash"
        clients = try (0..<options.int("clients")).map {
            try LoadClient(index: $0, address: address, frame: frame, seed: seed, tolerant: tolerant)
        }
        probe = try LoadClient(index: -1, address: address, frame: frame, seed: seed, tolerant: true)
        guard let status = probe.connection.retrying(Call(member: "GetStatus"))?.first?.vardictValue,
            let mutations = status["mutations"]?.uint64Value
        else { throw FloorError("GetStatus gave no mutation count at the start") }
        baseline = mutations
    }

    func run() throws -> [String: Any] {
        var report: [String: Any] = [:]
        if options.mode == "crash" {
            let stopFile = try options.string("stop-file")
            let seconds = runConcurrently(clients) {
                $0.run(Int.max, .mixedWithoutProperties) { access(stopFile, F_OK) == 0 }
            }
            report["seconds"] = seconds
        } else {
            report["mixed"] = mixed(calls: try options.int("calls"))
            report["rounds"] = try rounds()
        }
        var final = FinalCheck(clients: clients, probe: probe, baseline: baseline)
        final.run()
        let failures =
            clients.flatMap { client in client.stats.failures.map { "client \(client.index): \($0)" } }
            + final.failures
        report["final"] = final.summary
        report["calls"] = clients.map(\.stats.calls).reduce(0, +)
        report["transportErrors"] = clients.map(\.stats.transportErrors).reduce(0, +)
        report["failureCount"] = clients.map(\.stats.failureCount).reduce(0, +) + final.failures.count
        report["failures"] = Array(failures.prefix(40))
        report["ok"] = failures.isEmpty
        return report
    }

    /// Every client makes `calls` mixed calls at once; throughput and latencies by kind.
    private func mixed(calls: Int) -> [String: Any] {
        let seconds = runConcurrently(clients) { $0.run(calls, .mixed) }
        var result: [String: Any] = [
            "calls": clients.count * calls, "seconds": seconds, "throughput": Double(clients.count * calls) / seconds,
        ]
        for kind in [Step.Kind.read, .mutation, .rejected] {
            let samples = clients.flatMap { $0.stats.latencies[kind] ?? [] }
            result[kind.rawValue] = [
                "count": samples.count, "p50": percentile(samples, 50), "p99": percentile(samples, 99),
            ]
        }
        return result
    }

    /// Interleaved rounds (A B A B): pings, entries, lists, bare writes, mutations; rates per second.
    private func rounds() throws -> [String: Any] {
        let count = try options.int("rounds", default: 30)
        let perClient = try options.int("round-calls", default: 100)
        let mutationsPerClient = try options.int("round-mutations", default: 20)
        let writes = try options.int("round-writes", default: 200)
        let dataDirectory = try options.string("data-dir")
        let floorDirectory = try options.string("floor-dir")
        var series: [String: [Double]] = [:]
        var latencies: [String: [Int64]] = [:]
        for _ in 0..<count {
            for client in clients { client.resetLatencies() }
            let pingSeconds = runConcurrently(clients) { $0.ping(perClient) }
            series["ping", default: []].append(Double(clients.count * perClient) / pingSeconds)
            latencies["ping", default: []] += clients.flatMap { $0.stats.latencies[.read] ?? [] }
            for (name, profile) in [("entry", Planner.Profile.entries), ("list", .lists)] {
                for client in clients { client.resetLatencies() }
                let seconds = runConcurrently(clients) { $0.run(perClient, profile) }
                series[name, default: []].append(Double(clients.count * perClient) / seconds)
                latencies[name, default: []] += clients.flatMap { $0.stats.latencies[.read] ?? [] }
            }
            series["listedTasks", default: []].append(Double(clients.map(\.model.tasks.count).reduce(0, +)))
            let size = WriteFloor.size(of: dataDirectory + "/state.json") ?? 0
            series["write", default: []].append(
                try WriteFloor.run(directory: floorDirectory, size: size, count: writes))
            series["stateBytes", default: []].append(Double(size))
            let before = clients.map(\.stats.acknowledged).reduce(0, +)
            let mutationSeconds = runConcurrently(clients) { $0.run(mutationsPerClient, .mutations) }
            let acknowledged = clients.map(\.stats.acknowledged).reduce(0, +) - before
            series["mutation", default: []].append(Double(acknowledged) / mutationSeconds)
            latencies["mutation", default: []] += clients.flatMap { $0.stats.latencies[.mutation] ?? [] }
        }
        var result: [String: Any] = ["rounds": count]
        for (name, values) in series { result[name] = spread(values) }
        for (name, samples) in latencies {
            result[name + "Latency"] = ["p50": percentile(samples, 50), "p99": percentile(samples, 99)]
        }
        return result
    }
}
