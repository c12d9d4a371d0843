import Glibc

/// `CLOCK_REALTIME`, the wall clock: what the daemon's days and the clients' timers are reckoned
/// on (read here only, like every other system call).
public enum RealtimeClock {
    /// Whole seconds since the Unix epoch.
    public static func seconds() -> Int64 {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        return Int64(now.tv_sec)
    }

    /// Seconds since the Unix epoch, with their fraction.
    public static func preciseSeconds() -> Double {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
    }
}
