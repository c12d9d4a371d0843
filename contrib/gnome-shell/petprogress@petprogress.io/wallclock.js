// When a task's local HH:MM next comes round. No Shell imports: tested under plain gjs.

import GLib from 'gi://GLib';

const MICROSECONDS = 1000000;

/**
 * Seconds from `now` (a GLib.DateTime, in the zone that matters) to the first later instant whose
 * local wall time is `hhmm` ("HH:MM"), or null for a malformed time. The client uses it to re-read
 * the entry when a shown task turns overdue, which the daemon never signals (petprogress(7) §3.2). In a DST
 * gap GLib gives the first instant after the gap, as petprogress(7) §3 does; in a fold it gives the later
 * occurrence where petprogress(7) takes the first, so on that night the re-read may come late, but never
 * later than the daemon's next tick, whose PropertiesChanged carries the entry anyway.
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
