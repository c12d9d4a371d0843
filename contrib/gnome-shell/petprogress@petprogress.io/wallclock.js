// When a local HH:MM next comes round. No Shell imports: tested under plain gjs.

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
