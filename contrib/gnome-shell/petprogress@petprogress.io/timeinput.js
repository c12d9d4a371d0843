// The forgiving time input of petprogress(7) §7, as the menu's "Add task…" reads it: what petctl
// accepts on its command line. No Shell imports: tested under plain gjs.

import {_, fill} from './l10n.js';
import {secondsUntilWallTime} from './wallclock.js';

/** What the time field says while it cannot be read, in the user's language. The forms themselves
 * are petctl's and stay as they are in every language. */
export function timeHint() {
    return _('Type a time such as 14:30, 9:05, 0930, 7pm, 7:05pm, 19h, 19h05, +20m or +1h30m.');
}

const WALL_FORMS = [
    // HH:MM, H:MM
    [/^(\d{1,2}):(\d{2})$/, m => [Number(m[1]), Number(m[2])]],
    // HHMM
    [/^(\d{2})(\d{2})$/, m => [Number(m[1]), Number(m[2])]],
    // 19h, 19h05
    [/^(\d{1,2})h(\d{2})?$/, m => [Number(m[1]), Number(m[2] ?? 0)]],
    // 7pm, 7:05pm, 12am (midnight), 12pm (noon)
    [/^(\d{1,2})(?::(\d{2}))?([ap])m$/, m => twelveHour(Number(m[1]), Number(m[2] ?? 0), m[3])],
];

function twelveHour(hour, minute, half) {
    if (hour < 1 || hour > 12)
        return [NaN, minute];
    return [(hour % 12) + (half === 'p' ? 12 : 0), minute];
}

/**
 * Reads what was typed in the time field. Returns one of
 * - `{empty: true}`: nothing typed yet;
 * - `{time: 'HH:MM'}`: a wall time of the open day;
 * - `{minutes: N}`: `+20m`, `+1h30m`, `+2h`: N minutes from now on the daemon's clock (see `resolve`);
 * - `{error: sentence}`.
 * White space around the text and the letters' case do not matter.
 */
export function parseTime(text) {
    const typed = (text ?? '').trim().toLowerCase();
    if (typed === '')
        return {empty: true};
    const relative = /^\+(?:(\d{1,4})h)?(?:(\d{1,5})m)?$/.exec(typed);
    if (relative && (relative[1] !== undefined || relative[2] !== undefined)) {
        const minutes = Number(relative[1] ?? 0) * 60 + Number(relative[2] ?? 0);
        if (minutes < 1 || minutes > 24 * 60)
            return {error: fill(_('%s must be between +1m and +24h.'), text.trim())};
        return {minutes};
    }
    for (const [pattern, read] of WALL_FORMS) {
        const match = pattern.exec(typed);
        if (!match)
            continue;
        const [hour, minute] = read(match);
        if (!(hour >= 0 && hour <= 23 && minute >= 0 && minute <= 59))
            return {error: fill(_('%s is not a time of day: hours run 0–23 (1–12 with am/pm), minutes 00–59.'), text.trim())};
        return {time: `${String(hour).padStart(2, '0')}:${String(minute).padStart(2, '0')}`};
    }
    return {error: timeHint()};
}

/**
 * The `HH:MM` the bus takes for a parsed time. `now` is the daemon's clock as a GLib.DateTime in
 * the local zone; `resetTime` is its ResetTime setting (`HH:MM`), where the open day ends. A
 * relative time is rounded up to the next minute and refused, with a sentence, past the open day's
 * end. Returns `{time}` or `{error}`.
 */
export function resolve(parsed, now, resetTime) {
    if (parsed.time)
        return {time: parsed.time};
    if (parsed.minutes === undefined)
        return {error: parsed.error ?? timeHint()};
    let target = now.add_minutes(parsed.minutes);
    if (target.get_second() !== 0 || target.get_microsecond() !== 0)
        target = target.add_seconds(60 - target.get_second() - target.get_microsecond() / 1e6);
    const toDayEnd = secondsUntilWallTime(resetTime, now);
    if (toDayEnd !== null && target.difference(now) / 1e6 >= toDayEnd)
        return {error: fill(_('That is past the end of today (%s): plan it tomorrow with petctl add --tomorrow.'), resetTime)};
    return {time: target.format('%H:%M')};
}
