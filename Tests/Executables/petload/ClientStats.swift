import Glibc

/// What one client saw: latencies by kind of call, counts, and failures (the first few in full).
struct ClientStats {
    /// Microseconds per call, by kind.
    var latencies: [Step.Kind: [Int64]] = [:]
    var calls = 0
    var acknowledged = 0
    var appliedUnacknowledged = 0
    var transportErrors = 0
    var failureCount = 0
    var failures: [String] = []

    mutating func record(_ kind: Step.Kind, _ microseconds: Int64) {
        latencies[kind, default: []].append(microseconds)
    }

    mutating func fail(_ message: String) {
        failureCount += 1
        if failures.count < 20 { failures.append(message) }
    }

    /// Forgets the latencies (between measured phases), keeping counts and failures.
    mutating func resetLatencies() { latencies = [:] }
}

/// Microseconds on the monotonic clock.
enum Monotonic {
    static func now() -> Int64 {
        var spec = timespec()
        clock_gettime(CLOCK_MONOTONIC, &spec)
        return Int64(spec.tv_sec) * 1_000_000 + Int64(spec.tv_nsec) / 1000
    }
}
