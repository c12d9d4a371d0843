// Times on the locale's clock (wallclock.js's clockTime, through present.js), as petctl shows
// them: `2:30 PM` where LC_TIME has a 12-hour clock (en_US), `14:30` elsewhere (C, de_DE, fr_FR).
// run.sh runs it once per locale, LC_TIME set as a session sets it:
//   LC_TIME=en_US.UTF-8 PETPROGRESS_TWELVE_HOUR=1 gjs -m clock.test.js

import GLib from 'gi://GLib';

import {present} from '../petprogress@petprogress.io/present.js';
import {clockTime, twelveHourClock} from '../petprogress@petprogress.io/wallclock.js';
import {equal, run, test} from './harness.js';

const twelve = GLib.getenv('PETPROGRESS_TWELVE_HOUR') === '1';
const locale = GLib.getenv('LC_TIME');

const entry = {
    stage_index: 2, stage_count: 20, stage_name: 'Frog', stage_xp: 12, threshold: 30, is_final: false,
    icon_name: 'petprogress-frog', glyph: '🐸', tasks_done: 0, tasks_total: 3, next_task_id: 'a',
    next_task_title: 'Standup', next_task_time: '00:05', accessible_text: '',
    upcoming: [
        {id: 'a', title: 'Standup', time: '00:05', effective_time: '00:05', snoozed_until: 0},
        {id: 'b', title: 'Call Anna', time: '12:00', effective_time: '12:15', snoozed_until: 1772461800},
        {id: 'c', title: 'Water plants', time: '23:59', effective_time: '23:59', snoozed_until: 0, overdue: true},
    ],
};

test(`${locale}: the locale's clock is judged ${twelve ? '12' : '24'}-hour, as petctl judges it`, () => {
    equal(twelveHourClock(), twelve, 'twelveHourClock()');
});

test(`${locale}: a daemon HH:MM on the locale's clock; anything else unchanged`, () => {
    const cases = twelve
        ? {'00:05': '12:05 AM', '09:30': '9:30 AM', '12:00': '12:00 PM', '14:30': '2:30 PM', '23:59': '11:59 PM'}
        : {'00:05': '00:05', '09:30': '09:30', '12:00': '12:00', '14:30': '14:30', '23:59': '23:59'};
    for (const [hhmm, shown] of Object.entries(cases))
        equal(clockTime(hhmm), shown, hhmm);
    for (const other of ['', '24:00', '9:30', 'soon', null])
        equal(clockTime(other), other, `${other}`);
});

test(`${locale}: the menu's rows, a snooze's time among them, on that clock`, () => {
    const rows = present({running: true, entry, lastDone: null}, () => false, clockTime).tasks.map(t => t.text);
    equal(rows, twelve
        ? ['12:05 AM  Standup', '12:15 PM  Call Anna (snoozed from 12:00 PM)', '11:59 PM  Water plants (overdue)']
        : ['00:05  Standup', '12:15  Call Anna (snoozed from 12:00)', '23:59  Water plants (overdue)'], 'rows');
});

test(`${locale}: the top bar's spoken sentence names the next task on that clock`, () => {
    const said = present({running: true, entry, lastDone: null}, () => false, clockTime).accessibleName;
    equal(said, `Frog, stage 3 of 20, 12 of 30 XP. 0 of 3 tasks done. Next: ${twelve ? '12:05 AM' : '00:05'} Standup.`,
        'accessible name');
});

await run();
