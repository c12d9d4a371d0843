import Foundation

/// Runs `body` for every client, each on its own thread, and returns the wall time in seconds.
func runConcurrently(_ clients: [LoadClient], _ body: @escaping @Sendable (LoadClient) -> Void) -> Double {
    let group = DispatchGroup()
    let started = Monotonic.now()
    for client in clients {
        group.enter()
        let thread = Thread {
            body(client)
            group.leave()
        }
        thread.start()
    }
    group.wait()
    return Double(Monotonic.now() - started) / 1e6
}

/// p-th percentile (0…100) of microsecond samples, in milliseconds.
func percentile(_ samples: [Int64], _ p: Double) -> Double {
    guard !samples.isEmpty else { return 0 }
    let sorted = samples.sorted()
    let rank = Int((p / 100 * Double(sorted.count - 1)).rounded())
    return Double(sorted[min(max(rank, 0), sorted.count - 1)]) / 1000
}

/// Median, minimum and maximum of a series.
func spread(_ values: [Double]) -> [String: Double] {
    let sorted = values.sorted()
    guard let low = sorted.first, let high = sorted.last else { return [:] }
    let middle = sorted.count / 2
    let median = sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
    return ["median": median, "min": low, "max": high]
}
