// The extension in GNOME Shell 48 in German: after shell.test.js, scripts/check-gnome-shell.sh
// starts a new session whose Shell runs with LANG=de_DE.UTF-8 (GLib decides once, as a program
// starts, whether it translates at all, so a language set in a running Shell would not do). The catalogue in the zip's locale/ is the one the Shell binds for
// metadata.json's "gettext-domain": the menu, the top bar and the time field speak German. Read
// back through the Shell's own objects; the expectations are written by hand.

import GLib from 'gi://GLib';

import {check, equal, run, test, waitFor} from './harness.js';
import {PI, UUID, call, ev, pet, shot} from './shelldriver.js';

const addForm = `${PI}._addItem`;

test('the German Shell runs the extension: ACTIVE, the top bar says "aus" until the daemon starts', async () => {
    const info = () => call('org.gnome.Shell', '/org/gnome/Shell', 'org.gnome.Shell.Extensions',
        'GetExtensionInfo', new GLib.Variant('(s)', [UUID]))[0];
    await waitFor('state ACTIVE', () => info().state === 1, 30000);
    ev('Main.overview.hide()');
    await waitFor('the indicator', () => ev(`${PI} !== undefined`));
    equal(ev(`${PI}._count.text`), 'aus', 'no daemon on the new bus yet');
});

test('the menu in German: its items, a task\'s buttons, the stage line', async () => {
    pet('AddTask', '(ss)', ['Tierarzt anrufen', '23:00']); // D-Bus activation, the same data
    await waitFor('the pet and its count', () => /^\d+\/\d+/.test(ev(`${PI}._count.text`)), 20000);
    ev(`${PI}.menu.open()`);
    await waitFor('the menu open', () => ev(`${PI}.menu.isOpen`));
    const labels = ev(`${PI}.menu._getMenuItems().filter(i => i.visible && i.label).map(i => i.label.text)`);
    for (const label of ['Aufgabe hinzufügen…', 'Heute öffnen'])
        check(labels.includes(label), `"${label}" among ${JSON.stringify(labels)}`);
    check(!labels.includes('Open Today'), 'no English item');
    await waitFor('a task row', () => ev(`${PI}._taskItems[0].visible`));
    equal(ev(`[${PI}._taskItems[0]._done.label, ${PI}._taskItems[0]._snooze.label]`), ['Erledigt', 'Aufschieben'],
        'a task\'s buttons');
    const stage = ev(`${PI}._stageItem.label.text`);
    check(/^(Kaulquappe|Elritze|Frosch) · Stufe \d+ von 20 · \d+ von \d+ EP$/.test(stage), `stage line: ${stage}`);
    // The top bar's spoken sentence: composed in German, never the daemon's English accessible_text.
    const said = ev(`${PI}.accessible_name`);
    check(/^(Kaulquappe|Elritze|Frosch), Stufe \d+ von 20, \d+ von \d+ EP\. \d+ von \d+ Aufgaben? erledigt\./.test(said) &&
        !/\b(stage|tasks?|Next)\b/.test(said), `accessible name: ${said}`);
    shot('gnome-menu-de', [640, 0, 640, 420]);
});

test('Add task… in German: the time field\'s words', async () => {
    ev(`${addForm}.setSubmenuShown(true)`);
    ev(`${addForm}._timeEntry.text = '25:00'`);
    ev(`${addForm}._titleEntry.text = 'Woche planen'`);
    check(ev(`${addForm}._message.text`).startsWith('25:00 ist keine Uhrzeit: Stunden gehen von 0 bis 23'),
        ev(`${addForm}._message.text`));
    ev(`${addForm}._timeEntry.text = '7pm'`);
    equal(ev(`${addForm}._message.text`), 'Um 19:00.', 'a time it reads');
    equal(ev(`${addForm}._titleEntry.hint_text`), 'Titel', 'the title field');
    ev(`${addForm}._timeEntry.text = ''`);
    ev(`${addForm}._titleEntry.text = ''`);
    ev(`${PI}.menu.close()`);
});

await run({stopAfterFailure: true});
