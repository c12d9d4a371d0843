// The forgiving time input of petprogress(7) §7, as the widget's Add task reads it: what petctl
// accepts on its command line. Pure: no QML context, no i18n (the widget words the error kinds),
// no clock (the caller passes the daemon's). Checked by contrib/plasma/tests/tst_timeinput.qml
// against Tests/PetCtlTests/Fixtures/time-input.tsv, as the GNOME extension's timeinput.js is.
.pragma library

const WALL_FORMS = [
    // HH:MM, H:MM
    [/^(\d{1,2}):(\d{2})$/, m => [Number(m[1]), Number(m[2])]],
    // HHMM
    [/^(\d{2})(\d{2})$/, m => [Number(m[1]), Number(m[2])]],
    // 19h, 19h05
    [/^(\d{1,2})h(\d{2})?$/, m => [Number(m[1]), Number(m[2] === undefined ? 0 : m[2])]],
    // 7pm, 7:05pm, 12am (midnight), 12pm (noon)
    [/^(\d{1,2})(?::(\d{2}))?([ap])m$/, m => twelveHour(Number(m[1]), Number(m[2] === undefined ? 0 : m[2]), m[3])],
];

function twelveHour(hour, minute, half) {
    if (hour < 1 || hour > 12)
        return [NaN, minute];
    return [(hour % 12) + (half === "p" ? 12 : 0), minute];
}

function two(n) {
    return (n < 10 ? "0" : "") + n;
}

/**
 * What was typed in the time field: `{empty: true}`, `{time: "HH:MM"}`, `{minutes: N}` (`+20m`,
 * `+1h30m`: from now on the daemon's clock) or `{error: KIND}`, KIND one of "form" (not a form
 * petctl reads), "range" (hours or minutes off the clock), "relative" (not between +1m and +24h).
 * White space around the text and the letters' case do not matter. At most 32 characters are read.
 */
function parse(text) {
    const typed = String(text === undefined || text === null ? "" : text).trim().toLowerCase();
    if (typed === "")
        return {empty: true};
    if (typed.length > 32)
        return {error: "form"};
    const relative = /^\+(?:(\d{1,4})h)?(?:(\d{1,5})m)?$/.exec(typed);
    if (relative && (relative[1] !== undefined || relative[2] !== undefined)) {
        const minutes = Number(relative[1] === undefined ? 0 : relative[1]) * 60
            + Number(relative[2] === undefined ? 0 : relative[2]);
        if (minutes < 1 || minutes > 24 * 60)
            return {error: "relative"};
        return {minutes: minutes};
    }
    for (let i = 0; i < WALL_FORMS.length; i++) {
        const match = WALL_FORMS[i][0].exec(typed);
        if (!match)
            continue;
        const hm = WALL_FORMS[i][1](match);
        if (!(hm[0] >= 0 && hm[0] <= 23 && hm[1] >= 0 && hm[1] <= 59))
            return {error: "range"};
        return {time: two(hm[0]) + ":" + two(hm[1])};
    }
    return {error: "form"};
}

/**
 * The `HH:MM` the bus takes for a parsed time: `{time}` or `{error: KIND}` (the kinds of `parse`,
 * "pastEnd": a relative time at or past the open day's end, or "form" for nothing typed).
 * `now` and `dayEnd` are Unix seconds on the daemon's clock (GetStatus `now`, `open_day_end`;
 * `dayEnd` 0: unknown, not checked); `wallTime(seconds)` gives an instant's local `HH:MM`. A
 * relative time is rounded up to the next whole minute.
 */
function resolve(parsed, now, dayEnd, wallTime) {
    if (parsed.time !== undefined)
        return {time: parsed.time};
    if (parsed.minutes === undefined)
        return {error: parsed.error === undefined ? "form" : parsed.error};
    const target = Math.ceil((now + parsed.minutes * 60) / 60) * 60;
    if (dayEnd > 0 && target >= dayEnd)
        return {error: "pastEnd"};
    return {time: wallTime(target)};
}

/** An instant's `HH:MM` at a fixed offset from UTC (seconds east): for tests and fixed zones. */
function wallTimeAtOffset(seconds, offset) {
    const d = new Date((seconds + offset) * 1000);
    return two(d.getUTCHours()) + ":" + two(d.getUTCMinutes());
}

/** An instant's `HH:MM` in the widget's own zone (the session's, which the daemon shares). */
function localWallTime(seconds) {
    const d = new Date(seconds * 1000);
    return two(d.getHours()) + ":" + two(d.getMinutes());
}
