import CDBus
import Glibc

/// A non-blocking `timerfd` to add to an ``EventLoop`` with ``EventLoop/addFD(_:events:handler:)``.
///
/// Lives in DBusKit only because Swift's Glibc module does not export `<sys/timerfd.h>`.
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
    public init(clock: Clock) throws {
        self.clock = clock
        self.fd = try SystemCallError.check(
            timerfd_create(clock.id, Int32(TFD_NONBLOCK | TFD_CLOEXEC)), "timerfd_create")
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
    public func arm(atNanoseconds nanoseconds: Int64, interval: Duration? = nil, cancelOnSet: Bool = false) throws {
        var spec = itimerspec()
        spec.it_value = Self.makeTimespec(nanoseconds: max(1, nanoseconds))
        if let interval {
            let (seconds, attoseconds) = interval.components
            spec.it_interval = Self.makeTimespec(nanoseconds: seconds * 1_000_000_000 + attoseconds / 1_000_000_000)
        }
        var flags = Int32(TFD_TIMER_ABSTIME)
        if cancelOnSet { flags |= Int32(TFD_TIMER_CANCEL_ON_SET) }
        _ = try SystemCallError.check(timerfd_settime(fd, flags, &spec, nil), "timerfd_settime")
    }

    /// Arms the timer to fire once after `delay`, then every `interval` if given.
    public func arm(after delay: Duration, interval: Duration? = nil) throws {
        let (seconds, attoseconds) = delay.components
        try arm(atNanoseconds: now() + seconds * 1_000_000_000 + attoseconds / 1_000_000_000, interval: interval)
    }

    /// Stops the timer.
    public func disarm() throws {
        var spec = itimerspec()
        _ = try SystemCallError.check(timerfd_settime(fd, 0, &spec, nil), "timerfd_settime")
    }

    /// Reads the expiry count; call it from the loop handler to clear readability.
    public func read() -> Expiry {
        var count: UInt64 = 0
        let result = Glibc.read(fd, &count, MemoryLayout<UInt64>.size)
        if result == MemoryLayout<UInt64>.size { return .expired(count) }
        return result < 0 && errno == ECANCELED ? .clockChanged : .notYet
    }

    private static func makeTimespec(nanoseconds: Int64) -> Glibc.timespec {
        Glibc.timespec(tv_sec: Int(nanoseconds / 1_000_000_000), tv_nsec: Int(nanoseconds % 1_000_000_000))
    }
}
