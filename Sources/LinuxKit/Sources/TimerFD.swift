import CLinux
import Glibc

/// A non-blocking `timerfd` to add to an ``EventLoop`` with ``EventLoop/addFD(_:events:handler:)``.
public final class TimerFD {
    /// The clock the timer runs on.
    public enum Clock: Sendable {
        /// `CLOCK_MONOTONIC`: stops during suspend.
        case monotonic
        /// `CLOCK_REALTIME`: wall-clock time; can be armed with cancel-on-set to see clock jumps.
        case realtime
        /// `CLOCK_BOOTTIME`: monotonic, counting suspend.
        case boottime

        var id: clockid_t {
            switch self {
            case .monotonic: CLOCK_MONOTONIC
            case .realtime: CLOCK_REALTIME
            case .boottime: CLOCK_BOOTTIME
            }
        }
    }

    /// What a read found.
    public enum Expiry: Equatable, Sendable {
        /// The timer fired this many times since the last read.
        case expired(UInt64)
        /// The realtime clock was set (only with `cancelOnSet`): re-arm from the new time.
        case clockChanged
        /// Nothing yet (a spurious wake-up).
        case notYet
    }

    /// The descriptor to watch for readability.
    public let fd: Int32
    /// The clock given at creation.
    public let clock: Clock

    /// Creates a disarmed, non-blocking, close-on-exec timer.
    public init(clock: Clock) throws(SystemCallError) {
        self.clock = clock
        self.fd = try SystemCall.run("timerfd_create") { timerfd_create(clock.id, Int32(TFD_NONBLOCK | TFD_CLOEXEC)) }
    }

    deinit {
        close(fd)
    }

    /// The clock's current time in nanoseconds.
    public func now() -> Int64 {
        var time = Glibc.timespec()
        clock_gettime(clock.id, &time)
        return Int64(time.tv_sec) * 1_000_000_000 + Int64(time.tv_nsec)
    }

    /// Arms the timer to fire once at `nanoseconds` on its clock (absolute), then every `interval` if given.
    /// `cancelOnSet` (realtime only) makes a clock jump wake the loop with ``Expiry/clockChanged``.
    public func arm(
        atNanoseconds nanoseconds: Int64, interval: Duration? = nil, cancelOnSet: Bool = false
    ) throws(SystemCallError) {
        var spec = itimerspec()
        spec.it_value = Self.makeTimespec(nanoseconds: max(1, nanoseconds))
        if let interval {
            let (seconds, attoseconds) = interval.components
            spec.it_interval = Self.makeTimespec(nanoseconds: seconds * 1_000_000_000 + attoseconds / 1_000_000_000)
        }
        var flags = Int32(TFD_TIMER_ABSTIME)
        if cancelOnSet { flags |= Int32(TFD_TIMER_CANCEL_ON_SET) }
        try SystemCall.run("timerfd_settime") { timerfd_settime(fd, flags, &spec, nil) }
    }

    /// Arms the timer to fire once after `delay`, then every `interval` if given.
    public func arm(after delay: Duration, interval: Duration? = nil) throws(SystemCallError) {
        let (seconds, attoseconds) = delay.components
        try arm(atNanoseconds: now() + seconds * 1_000_000_000 + attoseconds / 1_000_000_000, interval: interval)
    }

    /// Stops the timer.
    public func disarm() throws(SystemCallError) {
        var spec = itimerspec()
        try SystemCall.run("timerfd_settime") { timerfd_settime(fd, 0, &spec, nil) }
    }

    /// Reads the expiry count; call it from the loop handler to clear readability.
    public func read() -> Expiry {
        var count: UInt64 = 0
        do {
            let size = try SystemCall.read(fd, &count, MemoryLayout<UInt64>.size)
            return size == MemoryLayout<UInt64>.size ? .expired(count) : .notYet
        } catch {
            return error.errno == ECANCELED ? .clockChanged : .notYet
        }
    }

    private static func makeTimespec(nanoseconds: Int64) -> Glibc.timespec {
        Glibc.timespec(tv_sec: Int(nanoseconds / 1_000_000_000), tv_nsec: Int(nanoseconds % 1_000_000_000))
    }
}
