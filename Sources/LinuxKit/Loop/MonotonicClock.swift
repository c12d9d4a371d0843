import Glibc

/// Milliseconds on `CLOCK_MONOTONIC`: the clock of the loop's deadlines (and the one libdbus's
/// timeout intervals are meant against).
public enum MonotonicClock {
    /// Now, in milliseconds since an arbitrary start.
    public static func milliseconds() -> Int64 {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return Int64(now.tv_sec) * 1000 + Int64(now.tv_nsec) / 1_000_000
    }

    /// Now, in nanoseconds since an arbitrary start (the scale timerfd deadlines take).
    public static func nanoseconds() -> Int64 {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return Int64(now.tv_sec) * 1_000_000_000 + Int64(now.tv_nsec)
    }

    /// `duration` in whole milliseconds, from 0 to `Int32.max` (about 24 days, as `poll` takes).
    static func milliseconds(_ duration: Duration) -> Int32 {
        let (seconds, attoseconds) = duration.components
        let (total, overflow) = seconds.multipliedReportingOverflow(by: 1000)
        guard !overflow else { return seconds < 0 ? 0 : .max }
        return Int32(clamping: max(0, total + attoseconds / 1_000_000_000_000_000))
    }
}
