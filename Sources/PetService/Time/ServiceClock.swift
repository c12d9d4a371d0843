import Glibc
import LinuxKit
import PetCore

/// The daemon's clock: the real wall clock, or the simulated one of petprogress(7) §9
/// (`start + scale × monotonic time since start-up`, with real clock jumps ignored).
public struct ServiceClock: Sendable {
    enum Mode: Sendable {
        case real
        case simulated(start: Instant, scale: Double, monotonicStart: Int64)
    }

    let mode: Mode

    /// The real wall clock.
    public static let real = ServiceClock(mode: .real)

    /// The simulated clock, starting now (monotonic) at `start` (or the real time now).
    public static func simulated(start: Instant?, scale: Double) -> ServiceClock {
        ServiceClock(mode: .simulated(start: start ?? realNow(), scale: scale, monotonicStart: monotonicNanoseconds()))
    }

    public var isSimulated: Bool {
        if case .simulated = mode { return true }
        return false
    }

    /// Simulated seconds per real second: 1 for the real clock.
    public var scale: Double {
        if case .simulated(_, let scale, _) = mode { return scale }
        return 1
    }

    /// Now, in whole Unix seconds.
    public func now() -> Instant {
        switch mode {
        case .real:
            return Self.realNow()
        case .simulated(let start, let scale, let mono0):
            let elapsed = Double(Self.monotonicNanoseconds() - mono0) / 1e9
            return start + Instant((elapsed * scale).rounded(.down))
        }
    }

    /// The timer clock that wakes the loop for this clock: realtime (jumps cancel it) or monotonic.
    public var timerClock: TimerFD.Clock { isSimulated ? .monotonic : .realtime }

    /// Arms `timer` (made with `timerClock`) to fire when this clock reaches `instant`.
    public func arm(_ timer: TimerFD, at instant: Instant) throws {
        switch mode {
        case .real:
            let (nanoseconds, overflow) = instant.multipliedReportingOverflow(by: 1_000_000_000)
            try timer.arm(atNanoseconds: overflow ? Self.farFuture : nanoseconds, cancelOnSet: true)
        case .simulated(let start, let scale, let mono0):
            // The first monotonic nanosecond at which `now()` reads `instant` (rounded up, plus a
            // microsecond so floating-point rounding cannot wake us a hair early and spin). A tiny
            // scale or a far wake-up can exceed Int64: wait "for ever" instead of trapping.
            let offset = (Double(instant - start) * 1e9 / scale).rounded(.up)
            let wait = offset < Double(Self.farFuture) ? max(0, Int64(offset)) : Self.farFuture
            try timer.arm(atNanoseconds: mono0 + wait + 1000)
        }
    }

    /// A timer deadline that never comes (about 126 years of nanoseconds), safe to add to a clock.
    static let farFuture: Int64 = 1 << 62

    static func realNow() -> Instant { Instant(RealtimeClock.seconds()) }

    static func monotonicNanoseconds() -> Int64 { MonotonicClock.nanoseconds() }
}
