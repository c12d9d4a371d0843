import LinuxKit
import PetCore

/// The daemon's one timer: armed at the next instant the service must wake (the next tick or the
/// open day's end); a realtime clock jump or a resume from suspend cancels it
/// (`TFD_TIMER_CANCEL_ON_SET`), so the service wakes and re-reads the clock.
final class WakeTimer {
    let timer: TimerFD
    private let clock: ServiceClock
    private let log: ServiceLog
    private var armed: Instant?

    init(clock: ServiceClock, log: ServiceLog) throws {
        timer = try TimerFD(clock: clock.timerClock)
        self.clock = clock
        self.log = log
    }

    /// Arms the timer at `instant` unless it already is.
    func arm(at instant: Instant) {
        guard instant != armed else { return }
        do {
            try clock.arm(timer, at: instant)
            armed = instant
        } catch {
            log("cannot arm the timer: \(error)")
        }
    }

    /// Reads the timer when its fd is readable: true when the service must refresh (it fired, or
    /// the clock was set and the timer must be re-armed).
    func fired() -> Bool {
        switch timer.read() {
        case .clockChanged:
            log("the clock was set; catching up")
        case .expired: break
        case .notYet: return false
        }
        armed = nil
        return true
    }
}
