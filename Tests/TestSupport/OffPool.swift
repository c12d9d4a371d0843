import Foundation

/// Runs `body` on a dedicated thread and returns its result to the awaiting task.
///
/// Every test target shares one test process and one cooperative pool as wide as the machine has
/// cores (two here). CPU-bound synchronous tests elsewhere can hold every pool thread for tens of
/// seconds, and an async test is not resumed meanwhile. Phases that race a scaled simulated clock
/// (start the daemon, then act before a tick or midnight) run here instead, where the kernel
/// schedules them fairly. Keep `#expect` out of `body`: return values and assert afterwards.
public func offPool<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<T, Error>) in
        let thread = Thread {
            do { continuation.resume(returning: try body()) } catch { continuation.resume(throwing: error) }
        }
        thread.stackSize = 8 << 20
        thread.start()
    }
}
