import Foundation

/// Polls `condition` every `interval` until it holds or `timeout` passes; whether it held.
public func poll(
    timeout: Duration = .seconds(10), every interval: Duration = .milliseconds(20), _ condition: () throws -> Bool
) async -> Bool {
    let deadline = ContinuousClock.now + timeout
    while ContinuousClock.now < deadline {
        if (try? condition()) == true { return true }
        try? await Task.sleep(for: interval)
    }
    return (try? condition()) == true
}

/// Polls `condition` every `interval` until it holds or `timeout` passes (blocking; for `offPool`
/// and synchronous suites).
public func pollBlocking(
    timeout: Duration = .seconds(10), every interval: Duration = .milliseconds(20), _ condition: () throws -> Bool
) -> Bool {
    let deadline = ContinuousClock.now + timeout
    while ContinuousClock.now < deadline {
        if (try? condition()) == true { return true }
        usleep(useconds_t(interval / .microseconds(1)))
    }
    return (try? condition()) == true
}
