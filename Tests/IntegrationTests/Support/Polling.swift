import Foundation

/// Polls `condition` every 20 ms until it holds or `timeout` passes; whether it held.
func poll(timeout: Duration = .seconds(10), _ condition: () throws -> Bool) async -> Bool {
    let deadline = ContinuousClock.now + timeout
    while ContinuousClock.now < deadline {
        if (try? condition()) == true { return true }
        try? await Task.sleep(for: .milliseconds(20))
    }
    return (try? condition()) == true
}

/// Polls `condition` every 20 ms until it holds or `timeout` passes (blocking; for `offPool`).
func pollBlocking(timeout: Duration = .seconds(10), _ condition: () throws -> Bool) -> Bool {
    let deadline = ContinuousClock.now + timeout
    while ContinuousClock.now < deadline {
        if (try? condition()) == true { return true }
        usleep(20_000)
    }
    return (try? condition()) == true
}
