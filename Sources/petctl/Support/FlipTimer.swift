import LinuxKit
import PetCore

/// The flip timer of `petctl watch`, the interactive Today screen and the tray (``FlipRule``).
extension TimerFD {
    /// One timer at the next instant one of `tasks` turns due or overdue, on the daemon's clock;
    /// a wall-clock jump cancels it, and the refresh that follows sets it again. With nothing to
    /// flip it is set a year ahead all the same, so that a wall-clock jump still brings a read (and
    /// with it, say, the line of a clock that went back).
    func armForNextFlip(_ tasks: [TaskRecord], daemonNow: Instant, scale: Double) {
        let realNow = RealtimeClock.preciseSeconds()
        let wait = FlipRule.wait(tasks, daemonNow: daemonNow, realNow: realNow, scale: scale) ?? 366 * 86_400
        let at = ((realNow + wait) * 1e9).rounded(.up)
        try? arm(atNanoseconds: at < 9e18 ? Int64(at) : Int64.max, cancelOnSet: true)
    }
}
