// When the menu reads the daemon again for a task turning due or overdue, which the daemon never
// signals (petprogress(7) §6.2): petctl's rule (Sources/petctl/Support/FlipRule.swift), checked
// against the same table, Tests/PetCtlTests/Fixtures/flip-rule.tsv. No Shell imports: tested under
// plain gjs.

/** A wait never shorter (an early wake cannot spin) nor longer (a day: the timer is set again). */
export const SHORTEST_WAIT = 0.1;
export const LONGEST_WAIT = 86400;

/**
 * The real seconds to wait from `realNow` (our clock, with its fraction) until the first of the
 * shown tasks' flags not yet set turns, on the daemon's clock (`daemonNow`, GetStatus's `now`; 0
 * when it does not say: our whole second), at its `time_scale` (simulated seconds per real second;
 * 0 or less is 1); null when none will. One more of the daemon's seconds, as both clocks are read
 * in whole seconds: a second late rather than early.
 */
export function flipWait(upcoming, daemonNow, realNow, timeScale) {
    const flips = (upcoming ?? [])
        .flatMap(task => [task.due ? 0 : task.due_at ?? 0, task.overdue ? 0 : task.overdue_at ?? 0])
        .filter(at => at > 0);
    if (flips.length === 0)
        return null;
    const now = daemonNow > 0 ? daemonNow : Math.floor(realNow);
    const ahead = (Math.min(...flips) + 1 - now) / (timeScale > 0 ? timeScale : 1);
    return Math.min(Math.max(ahead, SHORTEST_WAIT), LONGEST_WAIT);
}
