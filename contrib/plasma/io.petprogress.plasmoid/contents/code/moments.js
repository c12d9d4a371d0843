// When the widget reads the daemon again without being asked (petprogress(7) §8, docs/DECISIONS.md):
// the moments the entry names — its next tick (`next_date`) and the shown tasks' `due_at` and
// `overdue_at` — never an interval. Pure: tested by contrib/plasma/tests/tst_moments.qml.
.pragma library

/** The longest wait armed at once (a day): a longer one is re-armed when it ends. */
const LONGEST_MS = 24 * 3600 * 1000;

/**
 * The first instant after `now` (Unix seconds, the daemon's clock) at which what the widget shows
 * may change by itself: the entry's next tick, or a shown task (the entry's `upcoming`, and
 * `tasks`, the popup's list) turning due or overdue. `null` without an entry. Entries and tasks
 * are plain objects (their D-Bus keys).
 */
function nextMoment(entry, now, tasks) {
    if (!entry)
        return null;
    let best = null;
    const consider = function (t) {
        const at = Number(t);
        if (isFinite(at) && at > now && (best === null || at < best))
            best = at;
    };
    consider(entry.next_date);
    const lists = [entry.upcoming || [], tasks || []];
    for (let l = 0; l < lists.length; l++) {
        for (let i = 0; i < lists[l].length && i < 64; i++) {
            consider(lists[l][i].due_at);
            consider(lists[l][i].overdue_at);
        }
    }
    return best;
}

/**
 * Milliseconds of real time until `moment` on a daemon clock reading `now` that runs `scale` times
 * as fast as real time (`--time-scale`; 1 normally): a second late rather than early (both clocks
 * are read in whole seconds), never below one second, never above `LONGEST_MS`.
 */
function delayMs(moment, now, scale) {
    const rate = scale > 0 ? scale : 1;
    const ms = Math.ceil((moment - now + 1) * 1000 / rate);
    return Math.max(1000, Math.min(ms, LONGEST_MS));
}
