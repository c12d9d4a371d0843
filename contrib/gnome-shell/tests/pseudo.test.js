// present.js in the pseudo-language `qps` (po.py pseudo: every string of the catalogue inside
// ⟦…⟧), under plain gjs: a letter left outside the marks is a word the extension showed without
// its catalogue — the daemon's English `accessible_text` passed through, say. Task titles are
// emoji (data, not the extension's words).
//   LANGUAGE=qps PETPROGRESS_LOCALE_DIR=DIR gjs -m pseudo.test.js

import Gettext from 'gettext';
import GLib from 'gi://GLib';

import {DOMAIN} from '../petprogress@petprogress.io/l10n.js';
import {present} from '../petprogress@petprogress.io/present.js';
import {check, run, test} from './harness.js';

Gettext.bindtextdomain(DOMAIN, GLib.getenv('PETPROGRESS_LOCALE_DIR'));

/** The ASCII words of `text` outside ⟦…⟧ (marks nest: a sentence holds translated words). */
export function escaped(text) {
    let outside = String(text);
    for (;;) {
        const inner = outside.replace(/⟦[^⟦⟧]*⟧/g, ' ');
        if (inner === outside)
            break;
        outside = inner;
    }
    return outside.split(/[^A-Za-z]+/).filter(Boolean);
}

function entry(changes = {}) {
    return {
        stage_index: 2, stage_count: 20, stage_name: 'Frog', stage_xp: 12, threshold: 30, is_final: false,
        icon_name: 'petprogress-frog', glyph: '🐸', tasks_done: 2, tasks_total: 5, next_task_id: 'a',
        next_task_title: '☕', next_task_time: '14:30', next_task_overdue: false,
        accessible_text: 'Frog, stage 3 of 20, 12 of 30 XP. 2 of 5 tasks done. Next: 14:30 ☕.',
        upcoming: [{id: 'a', title: '☕', time: '14:00', effective_time: '14:30', snoozed_until: 1772461800,
            overdue: true}],
        ...changes,
    };
}

/** Every text a person reads or hears of a view. */
function words(view) {
    return [view.label, view.accessibleName, view.stageLine, view.restLine, view.emptyLine,
        ...view.tasks.flatMap(t => [t.text, t.accessibleText]), view.undo?.label ?? ''];
}

test('qps: the catalogue is there (the stage line is all marks)', () => {
    const line = present({running: true, entry: entry(), lastDone: null}).stageLine;
    check(line.startsWith('⟦Frog⟧ · ⟦stage'), `stage line: ${line}`);
});

test('qps: the top bar, its spoken sentence and the menu leave nothing outside the catalogue', () => {
    const entries = [
        entry(), entry({next_task_due: true}), entry({next_task_overdue: true, rest_day: true}),
        entry({tasks_done: 5, next_task_id: '', upcoming: []}),
        entry({tasks_total: 0, tasks_done: 0, next_task_id: '', upcoming: []}),
        entry({stage_index: 19, stage_name: 'Floating God', is_final: true, stage_xp: 7, threshold: 0}),
    ];
    const views = entries.map(e => present({running: true, entry: e, lastDone: {id: 'a', title: '☕'}}))
        .concat([present({running: false, entry: null, lastDone: null}),
            present({running: true, entry: null, lastDone: null})]);
    for (const view of views) {
        for (const text of words(view)) {
            const left = escaped(text);
            check(left.length === 0, `outside the catalogue: ${JSON.stringify(left)} in ${JSON.stringify(text)}`);
        }
    }
});

await run();
