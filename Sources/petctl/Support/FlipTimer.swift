import Glibc
import LinuxKit
import PetBus
import PetCore

/// The flip timer of `petctl watch` and the interactive Today screen: due and overdue are never
/// signalled (petprogress(7) §6.2), so a client that shows them wakes when the next one turns.
extension TimerFD {
    /// One timer at the next instant an upcoming task turns due or overdue (never signalled),
    /// placed on the daemon's clock; a wall-clock jump cancels it, and the refresh re-arms it.
    func armForNextFlip(_ entry: WidgetEntry, daemonNow: Instant, scale: Double) {
        // An older daemon sends no due_at or overdue_at (0): no timer.
        let flips: [Instant] = entry.upcoming.flatMap { task -> [Instant] in
            [task.due ? 0 : task.dueAt, task.overdue ? 0 : task.overdueAt].filter { $0 > 0 }
        }
        guard let flip = flips.min() else {
            try? disarm()
            return
        }
        // A flag is set from its instant on. The daemon's clock may be ahead or behind ours, and
        // simulated (`time_scale` simulated seconds per real second): the wait is the daemon's
        // time to the flip, in real seconds (from now, when an older daemon does not say its
        // clock). Both clocks are read in whole seconds, so one more of the daemon's seconds
        // keeps the timer from firing before the daemon agrees; a timer never fires sooner than
        // a tenth of a second from now, so an early wake cannot spin.
        let realNow = RealtimeClock.preciseSeconds()
        let ahead = Double(flip + 1 - (daemonNow == 0 ? Instant(realNow.rounded(.down)) : daemonNow))
        let wait = max(ahead / (scale > 0 ? scale : 1), 0.1)
        let at = ((realNow + wait) * 1e9).rounded(.up)
        try? arm(atNanoseconds: at < 9e18 ? Int64(at) : Int64.max, cancelOnSet: true)
    }
}
