// When a local HH:MM next comes round, and how the locale writes one. No Shell imports: tested
// under plain gjs.

import GLib from 'gi://GLib';

const MICROSECONDS = 1000000;

/**
 * Seconds from `now` (a GLib.DateTime, in the zone that matters) to the first later instant whose
 * local wall time is `hhmm` ("HH:MM"), or null for a malformed time. "Add task…" uses it for the
 * open day's end (the next ResetTime), past which a time from now is refused (petprogress(7) §7).
 * In a DST gap GLib gives the first instant after the gap, as petprogress(7) §3 does.
 */
export function secondsUntilWallTime(hhmm, now) {
    const match = /^([01][0-9]|2[0-3]):([0-5][0-9])$/.exec(hhmm ?? '');
    if (!match)
        return null;
    const [hour, minute] = [Number(match[1]), Number(match[2])];
    const zone = now.get_timezone();
    for (let days = 0; days <= 2; days++) {
        const day = now.add_days(days);
        const candidate = GLib.DateTime.new(zone, day.get_year(), day.get_month(),
            day.get_day_of_month(), hour, minute, 0);
        if (candidate && candidate.compare(now) > 0)
            return Math.ceil(candidate.difference(now) / MICROSECONDS);
    }
    return null;
}

/**
 * Whether the locale's clock (LC_TIME) is a 12-hour one, as petctl judges it: its time format
 * (`%X`, the C library's T_FMT) writes 13:05 without a 13 (en_US: `01:05:00 PM`). C, de_DE and
 * fr_FR write `13:05:00`. Worked out once: the Shell's locale does not change under it.
 */
let twelveHour = null;
export function twelveHourClock() {
    if (twelveHour === null) {
        const probe = GLib.DateTime.new(GLib.TimeZone.new_utc(), 2026, 3, 2, 13, 5, 0);
        twelveHour = !probe.format('%X').includes('13');
    }
    return twelveHour;
}

/**
 * A daemon `HH:MM` on the locale's clock, as petctl shows it: `2:30 PM` on a 12-hour clock, else
 * as it is (petprogress(7) §7: one clock format wherever a person reads a time). Anything that is
 * not an `HH:MM` is returned unchanged. `twelve` chooses the clock (tests); by default the locale's.
 */
export function clockTime(hhmm, twelve = twelveHourClock()) {
    const match = /^([01][0-9]|2[0-3]):([0-5][0-9])$/.exec(hhmm ?? '');
    if (!match || !twelve)
        return hhmm;
    return GLib.DateTime.new(GLib.TimeZone.new_utc(), 2026, 3, 2, Number(match[1]), Number(match[2]), 0)
        .format('%-I:%M %p');
}
