// What the top bar and menu say (present.js), under plain gjs. The same views are checked on the real daemon's entries in petclient.test.js.

import {CLOCK_KEYS, PAW, RECOVERY_KEYS, accessibleSentence, chooseIcon, clockNotice, present, recoveryNotice,
    recoveryOf} from '../petprogress@petprogress.io/present.js';
import {check, equal, run, test} from './harness.js';

/** An entry as the daemon sends it (petprogress(7) §6.2), with `changes` applied. */
function entry(changes = {}) {
    return {
        stage_index: 2, stage_count: 20, stage_name: 'Frog', stage_xp: 12, threshold: 30,
        is_final: false, icon_name: 'petprogress-frog', glyph: '🐸', tasks_done: 2, tasks_total: 5,
        next_task_id: '20260302-3', next_task_title: 'Write report', next_task_time: '14:30',
        next_task_overdue: false,
        accessible_text: 'Frog, stage 3 of 20, 12 of 30 XP. 2 of 5 tasks done. Next: 14:30 Write report.',
        upcoming: [
            task('20260302-3', 'Write report', '14:30'),
            task('20260302-4', 'Call Anna', '15:00', {effective_time: '15:15', snoozed_until: 1772461800}),
            task('20260302-5', 'Water plants', '17:00'),
        ],
        ...changes,
    };
}

function task(id, title, time, changes = {}) {
    return {id, title, time, effective_time: time, snoozed_until: 0, overdue: false, done: false, ...changes};
}

const running = changes => ({running: true, entry: entry(changes), lastDone: null});

test('the top bar shows X/Y and the entry\'s sentence', () => {
    const view = present(running());
    equal(view.label, '2/5', 'label');
    equal(view.accessibleName, entry().accessible_text, 'accessible name');
    equal([view.due, view.overdue, view.restDay, view.running], [false, false, false, true], 'states');
    equal(view.stageLine, 'Frog · stage 3 of 20 · 12 of 30 XP', 'stage line');
});

test('an overdue next task shows "!" and a rest day "rest", in text as well as style', () => {
    const overdue = present(running({next_task_overdue: true}));
    equal([overdue.label, overdue.overdue], ['2/5 !', true], 'overdue');
    const rest = present(running({rest_day: true}));
    equal([rest.label, rest.restDay], ['2/5 · rest', true], 'rest day');
    equal(rest.accessibleName, 'Frog, stage 3 of 20, 12 of 30 XP. Rest day. 2 of 5 tasks done. Next: 14:30 Write report.',
        'rest day is spoken once, before the tasks, as the daemon says it');
    check(rest.restLine !== '', 'the menu explains the rest day');
    equal(present(running({rest_day: true, next_task_overdue: true})).label, '2/5 ! · rest', 'both');
});

test('the sentence is composed from the entry\'s keys, never the daemon\'s English accessible_text', () => {
    const said = changes => present(running({accessible_text: 'The daemon\'s English.', ...changes}),
        () => false, hhmm => `<${hhmm}>`).accessibleName;
    equal(said(), 'Frog, stage 3 of 20, 12 of 30 XP. 2 of 5 tasks done. Next: <14:30> Write report.',
        'the next task\'s time on the clock present() is given');
    equal(said({next_task_due: true}), 'Frog, stage 3 of 20, 12 of 30 XP. 2 of 5 tasks done. Next: <14:30> Write report, due.',
        'due');
    equal(said({next_task_due: true, next_task_overdue: true}),
        'Frog, stage 3 of 20, 12 of 30 XP. 2 of 5 tasks done. Next: <14:30> Write report, overdue.', 'overdue');
    equal(said({tasks_done: 5, next_task_id: '', next_task_title: '', next_task_time: ''}),
        'Frog, stage 3 of 20, 12 of 30 XP. 5 of 5 tasks done. Nothing pending.', 'all done');
    equal(said({tasks_done: 0, tasks_total: 0, next_task_id: '', rest_day: true}),
        'Frog, stage 3 of 20, 12 of 30 XP. Rest day. No tasks planned.', 'nothing planned on a rest day');
    equal(said({tasks_done: 0, tasks_total: 1}), 'Frog, stage 3 of 20, 12 of 30 XP. 0 of 1 task done. Next: <14:30> Write report.',
        'one task');
    equal(said({stage_index: 19, stage_name: 'Floating God', is_final: true, stage_xp: 7, threshold: 0}),
        'Floating God, stage 20 of 20, final form, 7 XP. 2 of 5 tasks done. Next: <14:30> Write report.', 'final form');
    equal(accessibleSentence(entry()), entry().accessible_text, 'in English on a 24-hour clock, the daemon\'s own words');
});

test('a due next task (still on time) is its own state, without the "!" of an overdue one', () => {
    const due = present(running({next_task_due: true}));
    equal([due.label, due.due, due.overdue], ['2/5', true, false], 'due');
    const overdue = present(running({next_task_due: true, next_task_overdue: true}));
    equal([overdue.label, overdue.due, overdue.overdue], ['2/5 !', false, true], 'overdue wins');
    equal(present(running()).due, false, 'an entry without next_task_due (an older daemon) is not due');
});

test('an entry without rest_day (a daemon before that issue) is not a rest day', () => {
    const view = present(running());
    equal([view.restDay, view.restLine], [false, ''], 'rest day');
});

test('not running: "off", the paw, no tasks, no undo', () => {
    const view = present({running: false, entry: entry(), lastDone: {id: 'x', title: 'y'}});
    equal([view.running, view.label, view.iconName, view.glyph], [false, 'off', null, PAW], 'top bar');
    equal([view.tasks, view.undo], [[], null], 'menu');
    equal(view.accessibleName, 'Pet Progress is not running.', 'accessible name');
});

test('running before the entry is read: a neutral placeholder', () => {
    const view = present({running: true, entry: null, lastDone: null});
    equal([view.running, view.label, view.tasks], [true, '…', []], 'view');
});

test('the menu lists the upcoming tasks with their marks, and Undo names the last completion', () => {
    const view = present({...running(), lastDone: {id: '20260302-2', title: 'Stretch'}});
    equal(view.tasks.map(t => t.text),
        ['14:30  Write report', '15:15  Call Anna (snoozed from 15:00)', '17:00  Water plants'], 'rows');
    equal(view.undo, {id: '20260302-2', label: 'Undo “Stretch”'}, 'undo');
    const late = present(running({upcoming: [task('a', 'Late one', '08:00', {overdue: true})]}));
    equal(late.tasks, [{id: 'a', text: '08:00  Late one (overdue)', accessibleText: '08:00 Late one (overdue)',
        due: false, overdue: true}], 'overdue row');
    const now = present(running({upcoming: [task('b', 'Now', '14:00', {due: true})]}));
    equal(now.tasks, [{id: 'b', text: '14:00  Now (due)', accessibleText: '14:00 Now (due)', due: true,
        overdue: false}], 'due row');
});

test('empty lines: no tasks, all done', () => {
    equal(present(running({tasks_total: 0, tasks_done: 0, next_task_id: '', upcoming: []})).emptyLine,
        'No tasks planned today.', 'no tasks');
    equal(present(running({tasks_done: 5, next_task_id: '', upcoming: []})).emptyLine, 'All 5 tasks done.',
        'all done');
    equal(present(running()).emptyLine, '', 'pending');
});

test('the final stage reads as the final form', () => {
    const view = present(running({stage_index: 19, stage_name: 'Floating God', stage_xp: 7, threshold: 0,
        is_final: true}));
    equal(view.stageLine, 'Floating God · stage 20 of 20 · final form · 7 XP', 'stage line');
});

test('the icon: symbolic if installed, else full colour, else the glyph', () => {
    equal(chooseIcon('petprogress-frog', () => true), 'petprogress-frog-symbolic', 'both installed');
    equal(chooseIcon('petprogress-frog', n => n === 'petprogress-frog'), 'petprogress-frog', 'colour only');
    equal(chooseIcon('petprogress-frog', () => false), null, 'none');
    const view = present(running(), () => false);
    equal([view.iconName, view.glyph], [null, '🐸'], 'glyph fallback');
});

/** A GetStatus reply as the daemon sends it (petprogress(7) §6.1), after a recovery from the
 * snapshot of 2026-03-03, with `changes` applied. */
function status(changes = {}) {
    return {
        version: '1.0.0', data_dir: '/home/u/.local/share/petprogress', last_closed_day: '2026-03-03',
        open_day: '2026-03-04', mutations: 7, now: 1772611200, reply_cache_hits: 3,
        problems: ['state.json could not be read; it was moved to state.json.corrupt-20260304T080000Z.'],
        recovery: 'The state file could not be used; Pet Progress restored the state saved at the closeout ' +
            'of 2026-03-03.',
        recovery_source: 'snapshot', recovery_day: '2026-03-03',
        recovery_lost: 'changes since the closeout of 2026-03-03', recovery_at: 1772611200,
        problems_acknowledged: false,
        ...changes,
    };
}

/** What GetStatus adds while the clock reads more than an hour before the open day (SPEC §3.1). */
const clockBehind = {
    clock_behind: true, clock_day: '2026-03-02', clock_behind_snapshot: 'state-before-2026-03-02.json',
    open_day: '2026-03-04',
};

test('clock line: one line naming the open day and the snapshot to restore, with a Keep action', () => {
    const notice = clockNotice(status(clockBehind));
    equal(notice, {
        text: '⚠ Clock behind the open day 2026-03-04: petctl restore state-before-2026-03-02.json goes back',
        accessibleText: 'Warning: Clock behind the open day 2026-03-04: petctl restore ' +
            'state-before-2026-03-02.json goes back',
        hideLabel: 'Keep',
        hideAccessibleName: 'Keep the days as closed and hide the notice about the clock',
    }, 'notice');
    check(!notice.text.includes('\n'), 'one line');
    equal(clockNotice(status({...clockBehind, clock_behind_snapshot: ''})).text,
        '⚠ Clock behind the open day 2026-03-04: nothing was changed', 'no snapshot to restore');
});

test('clock line: none while the clock is right, once acknowledged, from an older daemon, or when off', () => {
    equal(clockNotice(status()), null, 'no clock_behind key');
    equal(clockNotice(status({...clockBehind, clock_behind: false})), null, 'acknowledged (the daemon says false)');
    equal([clockNotice(null), clockNotice(undefined)], [null, null], 'nothing read yet');
    const recovery = recoveryOf(status(clockBehind));
    equal(present({...running(), recovery}).clockLine, clockNotice(status(clockBehind)), 'running: in the view');
    equal(present({...running(), recovery}).notice, recoveryNotice(status()), 'beside the recovery line');
    equal(present({running: true, entry: null, lastDone: null, recovery}).clockLine, clockNotice(status(clockBehind)),
        'running, entry not read yet');
    equal(present({running: false, entry: null, lastDone: null, recovery: null}).clockLine, null, 'off');
});

test('recovery notice: shown while unacknowledged, in petctl today\'s words, with a Hide action', () => {
    const notice = recoveryNotice(status());
    equal(notice, {
        text: '⚠ The state file could not be used; Pet Progress restored the state saved at the closeout of ' +
            '2026-03-03. Lost: changes since the closeout of 2026-03-03.',
        accessibleText: 'Warning: The state file could not be used; Pet Progress restored the state saved at ' +
            'the closeout of 2026-03-03. Lost: changes since the closeout of 2026-03-03.',
        hideLabel: 'Hide',
        hideAccessibleName: 'Hide the notice about the recovered state file',
    }, 'notice');
    check(!notice.text.includes('\n'), 'one line');
    const rebuilt = recoveryNotice(status({recovery_source: 'empty', recovery_day: '',
        recovery: 'The state file could not be used and nothing could be recovered; Pet Progress started ' +
            'over (history is kept).', recovery_lost: ''}));
    check(rebuilt.text.endsWith('(history is kept).'), `no "Lost:" without a loss: ${rebuilt.text}`);
});

test('recovery notice: not shown without a recovery, once acknowledged, or from an older daemon', () => {
    equal(recoveryNotice(status({recovery: '', recovery_source: '', recovery_day: '', recovery_lost: '',
        recovery_at: 0})), null, 'no recovery ever');
    equal(recoveryNotice(status({problems_acknowledged: true})), null, 'acknowledged');
    const older = Object.fromEntries(Object.entries(status()).filter(([key]) => !RECOVERY_KEYS.includes(key)));
    equal(recoveryNotice(older), null, 'a reply without the keys');
    equal([recoveryNotice(null), recoveryNotice(undefined)], [null, null], 'nothing read yet');
});

test('recoveryOf keeps only the recovery and clock keys of a GetStatus reply', () => {
    equal(Object.keys(recoveryOf(status())), [...RECOVERY_KEYS, 'open_day'], 'keys');
    equal(Object.keys(recoveryOf(status(clockBehind))), [...RECOVERY_KEYS, ...CLOCK_KEYS], 'with the clock\'s');
    equal(recoveryOf({version: '1.0.0', mutations: 3}), null, 'an older daemon');
    equal(recoveryNotice(recoveryOf(status())), recoveryNotice(status()), 'the same notice');
});

test('the view carries the notice while the daemon runs, and none when it is off', () => {
    const recovery = recoveryOf(status());
    equal(present({...running(), recovery}).notice, recoveryNotice(status()), 'running');
    equal(present({running: true, entry: null, lastDone: null, recovery}).notice, recoveryNotice(status()),
        'running, entry not read yet');
    equal(present({...running(), recovery: {...recovery, problems_acknowledged: true}}).notice, null,
        'acknowledged');
    equal(present({running: false, entry: null, lastDone: null, recovery}).notice, null, 'not running');
    equal(present(running()).notice, null, 'status not read yet');
});

await run();
