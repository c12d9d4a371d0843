import PetCore

/// When a client that shows due and overdue reads the daemon again: those flags are never
/// signalled (petprogress(7) §6.2), so `watch`, the interactive screen and the tray wake when the
/// next one turns. One rule, checked against `Tests/PetCtlTests/Fixtures/flip-rule.tsv`, as the
/// GNOME Shell extension's `flip.js` is.
enum FlipRule {
    /// A wait never shorter (an early wake cannot spin) nor longer (a day: the timer is set again).
    static let shortest = 0.1
    static let longest = 86_400.0

    /// The real seconds to wait from `realNow` (our clock, with its fraction) until the first of
    /// `tasks`' flags not yet set turns, on the daemon's clock; nil when none will. The daemon's
    /// clock may be ahead or behind ours and simulated (`time_scale` simulated seconds per real
    /// second), so the wait is its time to the flip over its scale; `daemonNow` 0 (an older daemon
    /// that does not say) is our whole second. Both clocks are read in whole seconds, so one more
    /// of the daemon's seconds keeps the wake from coming before the daemon agrees. An older daemon
    /// sends no `due_at` or `overdue_at` (0): nothing to wait for.
    static func wait(_ tasks: [TaskRecord], daemonNow: Instant, realNow: Double, scale: Double) -> Double? {
        let flips = tasks.flatMap { [$0.due ? 0 : $0.dueAt, $0.overdue ? 0 : $0.overdueAt] }.filter { $0 > 0 }
        guard let flip = flips.min() else { return nil }
        let now = daemonNow > 0 ? daemonNow : Instant(realNow.rounded(.down))
        let ahead = Double(flip + 1 - now) / (scale > 0 ? scale : 1)
        return min(max(ahead, shortest), longest)
    }
}
