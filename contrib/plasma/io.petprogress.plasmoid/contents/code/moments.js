// When the widget reads the daemon again without being asked (petprogress(7) §8, docs/DECISIONS.md):
// the moments the entry names — its next tick (`next_date`) and the shown tasks turning due or
// overdue — never an interval. The flips follow petctl's rule (Sources/petctl/Support/FlipRule.swift,
// the GNOME extension's flip.js), checked against the same table,
// Tests/PetCtlTests/Fixtures/flip-rule.tsv, by contrib/plasma/tests/tst_moments.qml.
.pragma library

/** A wait never shorter (an early wake cannot spin) nor longer (a day: the timer is set again). */
const SHORTEST_WAIT = 0.1;
const LONGEST_WAIT = 86400;

/** At most this many of a list's tasks are looked at (the popup shows 50). */
const MOST_TASKS = 64;

/** Real seconds from `realNow` until one more of the daemon's seconds past `at`, clamped. */
function waitUntil(at, daemonNow, realNow, timeScale) {
    const now = daemonNow > 0 ? daemonNow : Math.floor(realNow);
    const ahead = (at + 1 - now) / (timeScale > 0 ? timeScale : 1);
    return Math.min(Math.max(ahead, SHORTEST_WAIT), LONGEST_WAIT);
}

/**
 * The real seconds to wait from `realNow` (our clock, with its fraction) until the first of the
 * tasks' flags not yet set turns, on the daemon's clock (`daemonNow`, GetStatus's `now`; 0 when it
 * does not say: our whole second), at its `time_scale` (simulated seconds per real second; 0 or
 * less is 1); null when none will. Tasks are plain objects with their D-Bus keys (`due`,
 * `overdue`, `due_at`, `overdue_at`).
 */
function flipWait(tasks, daemonNow, realNow, timeScale) {
    let first = 0;
    const list = tasks || [];
    for (let i = 0; i < list.length && i < MOST_TASKS; i++) {
        const t = list[i];
        for (const at of [t.due ? 0 : Number(t.due_at) || 0, t.overdue ? 0 : Number(t.overdue_at) || 0])
            if (at > 0 && (first === 0 || at < first))
                first = at;
    }
    return first > 0 ? waitUntil(first, daemonNow, realNow, timeScale) : null;
}

/**
 * Milliseconds of real time until what the widget shows may change by itself: the first flip of
 * the entry's `upcoming` and the popup's `tasks`, or the entry's next tick, whichever is sooner;
 * null without an entry or anything to wait for.
 */
function nextWaitMs(entry, tasks, daemonNow, realNow, timeScale) {
    if (!entry)
        return null;
    const waits = [flipWait(entry.upcoming, daemonNow, realNow, timeScale),
                   flipWait(tasks, daemonNow, realNow, timeScale)];
    const tick = Number(entry.next_date) || 0;
    if (tick > 0)
        waits.push(waitUntil(tick, daemonNow, realNow, timeScale));
    const known = waits.filter(w => w !== null);
    return known.length === 0 ? null : Math.ceil(Math.min(...known) * 1000);
}
