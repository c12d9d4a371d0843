// present.js and timeinput.js in German and French, under plain gjs: the extension's catalogues
// (compiled by run.sh into $PETPROGRESS_LOCALE_DIR, as the zip holds them) bound to its domain,
// the language chosen by LANGUAGE as a session chooses it. Every expectation is written by hand.
//   LANGUAGE=de|fr gjs -m l10n.test.js

import Gettext from 'gettext';
import GLib from 'gi://GLib';

import {DOMAIN, fill, ngettext} from '../petprogress@petprogress.io/l10n.js';
import {present, recoveryNotice, taskLine} from '../petprogress@petprogress.io/present.js';
import {parseTime, resolve, timeHint} from '../petprogress@petprogress.io/timeinput.js';
import {equal, run, test} from './harness.js';

const language = GLib.getenv('LANGUAGE');
Gettext.bindtextdomain(DOMAIN, GLib.getenv('PETPROGRESS_LOCALE_DIR'));

const NB = '\u00a0'; // French puts a no-break space before a colon
const EXPECTED = {
    de: {
        stage: 'Frosch · Stufe 3 von 20 · 12 von 30 EP',
        final: 'Schwebender Gott · Stufe 20 von 20 · letzte Form · 7 EP',
        rest: ['2/5 · Ruhetag', 'Ruhetag: Offene Aufgaben kosten heute nichts.'],
        off: ['aus', 'Pet Progress läuft nicht.', 'Pet Progress läuft nicht.'],
        empty: 'Heute sind keine Aufgaben geplant.',
        done: {0: 'Alle 0 Aufgaben erledigt.', 1: '1 Aufgabe erledigt.', 2: 'Alle 2 Aufgaben erledigt.',
            5: 'Alle 5 Aufgaben erledigt.'},
        task: '15:15  Anna anrufen (aufgeschoben von 15:00, überfällig)',
        undo: '„Anna anrufen“ rückgängig machen',
        notice: ['Warnung: Kaputt. Verloren: ein Tag.', 'Ausblenden'],
        hint: 'Gib eine Uhrzeit ein, etwa 14:30, 9:05, 0930, 7pm, 7:05pm, 19h, 19h05, +20m oder +1h30m.',
        hour: '25:00 ist keine Uhrzeit: Stunden gehen von 0 bis 23 (1 bis 12 mit am/pm), Minuten von 00 bis 59.',
        span: '+25h muss zwischen +1m und +24h liegen.',
        late: 'Das liegt nach dem Ende des heutigen Tages (00:00): Plane es mit petctl add --tomorrow für morgen.',
        said: 'Frosch, Stufe 3 von 20, 12 von 30 EP. 2 von 5 Aufgaben erledigt. Als Nächstes: 14:30 Bericht schreiben, überfällig.',
        saidRest: 'Frosch, Stufe 3 von 20, 12 von 30 EP. Ruhetag. 5 von 5 Aufgaben erledigt. Nichts mehr offen.',
        saidFinal: 'Schwebender Gott, Stufe 20 von 20, letzte Form, 7 EP. Keine Aufgaben geplant.',
    },
    fr: {
        stage: 'Grenouille · stade 3 sur 20 · 12 sur 30 XP',
        final: 'Dieu flottant · stade 20 sur 20 · forme finale · 7 XP',
        rest: ['2/5 · repos', `Jour de repos${NB}: les tâches à faire ne coûtent rien aujourd’hui.`],
        off: ['arrêté', 'Pet Progress est arrêté.', 'Pet Progress est arrêté.'],
        empty: 'Aucune tâche prévue aujourd’hui.',
        // French counts 0 as singular (plural=(n > 1)).
        done: {0: '0 tâche faite.', 1: '1 tâche faite.', 2: 'Les 2 tâches sont faites.',
            5: 'Les 5 tâches sont faites.'},
        task: '15:15  Anna anrufen (reportée de 15:00, en retard)',
        undo: `Annuler «${NB}Anna anrufen${NB}»`,
        notice: [`Attention${NB}: Kaputt. Perdu${NB}: ein Tag.`, 'Masquer'],
        hint: 'Saisissez une heure comme 14:30, 9:05, 0930, 7pm, 7:05pm, 19h, 19h05, +20m ou +1h30m.',
        hour: `25:00 n’est pas une heure${NB}: les heures vont de 0 à 23 (de 1 à 12 avec am/pm), les minutes de 00 à 59.`,
        span: '+25h doit être entre +1m et +24h.',
        late: `C’est après la fin de la journée (00:00)${NB}: planifiez-la pour demain avec petctl add --tomorrow.`,
        said: `Grenouille, stade 3 sur 20, 12 XP sur 30. 2 sur 5 tâches faites. Ensuite${NB}: 14:30 Bericht schreiben, en retard.`,
        saidRest: 'Grenouille, stade 3 sur 20, 12 XP sur 30. Jour de repos. 5 sur 5 tâches faites. Plus rien à faire.',
        saidFinal: 'Dieu flottant, stade 20 sur 20, forme finale, 7 XP. Aucune tâche prévue.',
    },
}[language];
if (!EXPECTED)
    throw new Error(`l10n.test.js: LANGUAGE must be de or fr, not ${language}`);

function entry(changes = {}) {
    return {
        stage_index: 2, stage_count: 20, stage_name: 'Frog', stage_xp: 12, threshold: 30, is_final: false,
        tasks_done: 2, tasks_total: 5, next_task_id: '20260302-3', accessible_text: 'Frog.', upcoming: [],
        ...changes,
    };
}
const running = changes => ({running: true, entry: entry(changes), lastDone: null});

test(`${language}: the domain is metadata.json's "gettext-domain"`, () => {
    const path = GLib.build_filenamev([GLib.path_get_dirname(import.meta.url.replace('file://', '')),
        '..', 'petprogress@petprogress.io', 'metadata.json']);
    const [, bytes] = GLib.file_get_contents(path);
    equal(JSON.parse(new TextDecoder().decode(bytes))['gettext-domain'], DOMAIN, 'gettext-domain');
});

test(`${language}: the stage line, the pet's form named in the language`, () => {
    equal(present(running()).stageLine, EXPECTED.stage, 'stage line');
    equal(present(running({stage_index: 19, stage_name: 'Floating God', is_final: true, stage_xp: 7})).stageLine,
        EXPECTED.final, 'final form');
    equal(present(running({stage_name: 'Mochi'})).stageLine.split(' · ')[0], 'Mochi', 'a custom form stays');
});

test(`${language}: rest day, not running, no tasks`, () => {
    const rest = present(running({rest_day: true}));
    equal([rest.label, rest.restLine], EXPECTED.rest, 'rest day');
    const off = present({running: false, entry: null, lastDone: null});
    equal([off.label, off.stageLine, off.accessibleName], EXPECTED.off, 'not running');
    equal(present(running({tasks_total: 0, tasks_done: 0, next_task_id: ''})).emptyLine, EXPECTED.empty, 'no tasks');
});

test(`${language}: all tasks done, plural forms at 0, 1, 2 and 5`, () => {
    for (const n of [1, 2, 5])
        equal(present(running({tasks_total: n, tasks_done: n, next_task_id: ''})).emptyLine, EXPECTED.done[n], `${n}`);
    equal(fill(ngettext('All %d task done.', 'All %d tasks done.', 0), 0), EXPECTED.done[0], '0');
});

test(`${language}: a task's marks, Undo and the recovery notice`, () => {
    const task = taskLine({id: 'x', title: 'Anna anrufen', time: '15:00', effective_time: '15:15',
        snoozed_until: 1772461800, overdue: true});
    equal(task.text, EXPECTED.task, 'task line');
    equal(present({...running(), lastDone: {id: 'x', title: 'Anna anrufen'}}).undo.label, EXPECTED.undo, 'undo');
    const notice = recoveryNotice({recovery: 'Kaputt.', recovery_lost: 'ein Tag', problems_acknowledged: false});
    equal([notice.accessibleText, notice.hideLabel], EXPECTED.notice, 'notice');
});

test(`${language}: the top bar's spoken sentence, composed in the language (never the daemon's English)`, () => {
    const said = changes => present(running({accessible_text: 'Frog, stage 3 of 20. English.', ...changes})).accessibleName;
    equal(said({next_task_title: 'Bericht schreiben', next_task_time: '14:30', next_task_overdue: true}), EXPECTED.said,
        'overdue next task');
    equal(said({rest_day: true, tasks_done: 5, next_task_id: ''}), EXPECTED.saidRest, 'rest day, all done');
    equal(said({stage_index: 19, stage_name: 'Floating God', is_final: true, stage_xp: 7, threshold: 0, tasks_total: 0,
        tasks_done: 0, next_task_id: ''}), EXPECTED.saidFinal, 'final form, nothing planned');
});

test(`${language}: the time field's refusals; the forms typed stay petctl's`, () => {
    equal(parseTime('soon'), {error: EXPECTED.hint}, 'hint');
    equal(timeHint(), EXPECTED.hint, 'timeHint');
    equal(parseTime('25:00'), {error: EXPECTED.hour}, 'hour');
    equal(parseTime('+25h'), {error: EXPECTED.span}, 'span');
    equal(parseTime('7pm'), {time: '19:00'}, '7pm is read in every language');
    const now = GLib.DateTime.new(GLib.TimeZone.new_local(), 2026, 3, 2, 23, 30, 0);
    equal(resolve({minutes: 60}, now, '00:00'), {error: EXPECTED.late}, 'past the end of today');
});

await run();
