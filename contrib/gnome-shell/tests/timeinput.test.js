// The forgiving time input of the menu's "Add task…" (timeinput.js), under plain gjs: every form
// petprogress(7) §7 names, what it refuses, and relative times against a given clock.

import GLib from 'gi://GLib';

import {parseTime, resolve, timeHint} from '../petprogress@petprogress.io/timeinput.js';
import {check, equal, run, test} from './harness.js';

/** A local instant in Europe/Berlin (run.sh sets TZ). */
function at(year, month, day, hour, minute, second = 0) {
    return GLib.DateTime.new(GLib.TimeZone.new_local(), year, month, day, hour, minute, second);
}

test('every wall-time form reads as HH:MM', () => {
    const table = [
        ['14:30', '14:30'], ['9:05', '09:05'], ['09:05', '09:05'], ['0:00', '00:00'], ['23:59', '23:59'],
        ['0930', '09:30'], ['1900', '19:00'], ['0000', '00:00'],
        ['7pm', '19:00'], ['7:05pm', '19:05'], ['7am', '07:00'], ['12am', '00:00'], ['12pm', '12:00'],
        ['12:30am', '00:30'], ['11:59pm', '23:59'], ['7PM', '19:00'], [' 7:05Pm ', '19:05'],
        ['19h', '19:00'], ['7h', '07:00'], ['0h', '00:00'], ['23H', '23:00'], ['19h30', '19:30'],
    ];
    for (const [typed, time] of table)
        equal(parseTime(typed), {time}, typed);
});

test('relative times are minutes from now', () => {
    const table = [['+20m', 20], ['+1h30m', 90], ['+2h', 120], ['+90m', 90], ['+24h', 1440], [' +1H5M ', 65]];
    for (const [typed, minutes] of table)
        equal(parseTime(typed), {minutes}, typed);
});

test('nothing typed is neither good nor bad', () => {
    equal(parseTime(''), {empty: true}, 'empty');
    equal(parseTime('   '), {empty: true}, 'blank');
});

test('what is not a time says what to type', () => {
    for (const typed of ['7', '930', '14:3', '14.30', '1:2:3', 'noon', '+', '+h', '+20', '20m', '-20m',
        '7pmx', '12345', '٧:٣٠', '+1m2h', '7 pm', '19h5'])
        equal(parseTime(typed), {error: timeHint()}, typed);
});

test('a time that cannot be on a clock says the ranges', () => {
    for (const typed of ['24:00', '9:60', '2400', '2360', '24h', '0pm', '13pm', '0:30am', '12:60pm', '14:30pm']) {
        const parsed = parseTime(typed);
        check(parsed.error?.startsWith(`${typed} is not a time of day`), `${typed}: ${JSON.stringify(parsed)}`);
    }
});

test('a wall time resolves to itself', () => {
    equal(resolve(parseTime('7pm'), at(2026, 3, 2, 23, 0), '00:00'), {time: '19:00'}, '7pm');
});

test('a relative time rounds up to the next minute on the given clock', () => {
    equal(resolve({minutes: 20}, at(2026, 3, 2, 14, 0, 0), '00:00'), {time: '14:20'}, 'on the minute');
    equal(resolve({minutes: 20}, at(2026, 3, 2, 14, 0, 1), '00:00'), {time: '14:21'}, 'one second past');
    equal(resolve({minutes: 90}, at(2026, 3, 2, 14, 59, 30), '00:00'), {time: '16:30'}, '+1h30m');
});

test('a relative time past the end of the open day is refused', () => {
    const late = resolve({minutes: 60}, at(2026, 3, 2, 23, 30), '00:00');
    check(late.error?.startsWith('That is past the end of today (00:00)'), JSON.stringify(late));
    equal(resolve({minutes: 29}, at(2026, 3, 2, 23, 30), '00:00'), {time: '23:59'}, 'just before');
    check(resolve({minutes: 30}, at(2026, 3, 2, 23, 30), '00:00').error, 'at the end');
    // With reset 04:00, 01:30 still belongs to the day that began at 04:00 yesterday.
    equal(resolve({minutes: 120}, at(2026, 3, 2, 23, 30), '04:00'), {time: '01:30'}, 'reset 04:00');
    check(resolve({minutes: 300}, at(2026, 3, 2, 23, 30), '04:00').error, 'past 04:00');
});

test('across the spring-forward gap the clock, not the minutes, is shown', () => {
    // Berlin, 2026-03-29: 02:00 CET becomes 03:00 CEST; +60m from 01:30 is 03:30 on the wall.
    equal(resolve({minutes: 60}, at(2026, 3, 29, 1, 30), '00:00'), {time: '03:30'}, 'over the gap');
});

test('petctl\'s table of typed times reads the same here', () => {
    // Tests/PetCtlTests/Fixtures/time-input.tsv: input, the daemon's now, the open day's end, and
    // the HH:MM sent or "refused". The menu knows the day's end as ResetTime, its wall time.
    const path = GLib.build_filenamev([GLib.path_get_dirname(import.meta.url.replace('file://', '')),
        '..', '..', '..', 'Tests', 'PetCtlTests', 'Fixtures', 'time-input.tsv']);
    const [, bytes] = GLib.file_get_contents(path);
    const rows = new TextDecoder().decode(bytes).split('\n')
        .filter(line => line !== '' && !line.startsWith('#')).slice(1).map(line => line.split('\t'));
    check(rows.length > 40, `${rows.length} rows`);
    for (const [input, now, dayEnd, expected] of rows) {
        const end = GLib.DateTime.new_from_iso8601(dayEnd, null);
        const got = resolve(parseTime(input), GLib.DateTime.new_from_iso8601(now, null), end.format('%H:%M'));
        if (expected === 'refused')
            check(got.error, `${input} at ${now}: ${JSON.stringify(got)}`);
        else
            equal(got, {time: expected}, `${input} at ${now}`);
    }
});

await run();
