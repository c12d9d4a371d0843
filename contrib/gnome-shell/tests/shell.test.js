// The extension in a real GNOME Shell 48, driven through the Shell's own objects with
// org.gnome.Shell.Eval and checked against the daemon on the same session bus. Run by
// scripts/check-gnome-shell.sh (which starts the Shell in a Debian 13 root, in unsafe mode through a
// test-only extension); PETPROGRESS_ROOT is that root as seen from here. The tests build on each other.

import Gio from 'gi://Gio';
import GLib from 'gi://GLib';

import {stageLine} from '../petprogress@petprogress.io/present.js';
import {check, equal, run, test, waitFor} from './harness.js';
import {PET, PI, ROOT, UUID, call, ev, pet, shot} from './shelldriver.js';

/** The daemon's refusal of a call: `{name, message}`. */
function refusal(method, signature, args) {
    try {
        pet(method, signature, args);
    } catch (error) {
        const name = Gio.DBusError.get_remote_error(error);
        Gio.DBusError.strip_remote_error(error);
        return {name, message: error.message};
    }
    throw new Error(`${method} was not refused`);
}

const ids = {};
const tasks = () => Object.fromEntries(pet('ListTasks', '(s)', [''])[0].map(t => [t.title, t]));
const entry = () => pet('GetWidgetEntry')[0];
const hasOwner = () => call('org.freedesktop.DBus', '/org/freedesktop/DBus', 'org.freedesktop.DBus',
    'NameHasOwner', new GLib.Variant('(s)', [PET]))[0];

/** The daemon D-Bus activation starts, inside the root, on a simulated clock. */
function serviceFile(now, timeScale = null) {
    const dir = `${ROOT}/home/tester/.local/share/dbus-1/services`;
    GLib.mkdir_with_parents(dir, 0o755);
    const scale = timeScale ? ` --time-scale ${timeScale}` : '';
    GLib.file_set_contents(`${dir}/${PET}.service`, `[D-BUS Service]\nName=${PET}\n` +
        `Exec=/opt/pet/petprogressd --data-dir /home/tester/petdata --now ${now}${scale}\n`);
    call('org.freedesktop.DBus', '/org/freedesktop/DBus', 'org.freedesktop.DBus', 'ReloadConfig');
}

const menuItem = label => `${PI}.menu._getMenuItems().find(i => i.label?.text === '${label}')`;
const addForm = `${PI}._addItem`;

test('GNOME Shell 48 runs the extension installed from the zip: enabled, ACTIVE, no error', async () => {
    const version = call('org.gnome.Shell', '/org/gnome/Shell', 'org.freedesktop.DBus.Properties', 'Get',
        new GLib.Variant('(ss)', ['org.gnome.Shell', 'ShellVersion']))[0];
    check(version.startsWith('48.'), `Shell version ${version}`);
    const info = () => call('org.gnome.Shell', '/org/gnome/Shell', 'org.gnome.Shell.Extensions',
        'GetExtensionInfo', new GLib.Variant('(s)', [UUID]))[0];
    // A moment after enabling, the state may read ERROR with no message: wait for ACTIVE (1).
    await waitFor('state ACTIVE', () => info().state === 1, 20000);
    const {state, error, enabled, path} = info();
    equal({state, error, enabled, path},
        {state: 1, error: '', enabled: true, path: `/home/tester/.local/share/gnome-shell/extensions/${UUID}`},
        'extension info');
    ev('Main.overview.hide()');
    await waitFor('the indicator', () => ev(`${PI} !== undefined`));
    equal(ev(`${PI}._count.text`), 'off', 'no daemon yet: off');
});

test('the top bar shows the pet and done/total, and follows the daemon', async () => {
    serviceFile('2026-03-02T09:00:00Z');
    call('org.freedesktop.DBus', '/org/freedesktop/DBus', 'org.freedesktop.DBus', 'StartServiceByName',
        new GLib.Variant('(su)', [PET, 0]));
    for (const [title, time] of [['Write report', '09:30'], ['Call the vet', '10:00'], ['Water plants', '11:00']])
        ids[title] = pet('AddTask', '(ss)', [title, time])[0];
    await waitFor('0/3 in the top bar', () => ev(`${PI}._count.text`) === '0/3');
    const pet0 = entry();
    equal(ev(`[${PI}._icon.visible, ${PI}._icon.icon_name]`), [true, `${pet0.icon_name}-symbolic`],
        'the pet\'s symbolic icon');
    // Composed by present.js from the entry's keys; in English on a 24-hour clock it says what the
    // daemon's accessible_text says (l10n.test.js and clock.test.js check the other languages and clocks).
    equal(ev(`${PI}.accessible_name`), pet0.accessible_text, 'accessible name');
    shot('gnome-top-bar', [640, 0, 640, 32]);
    pet('MarkDone', '(s)', [ids['Write report']]);
    await waitFor('1/3 after a Done by another client', () => ev(`${PI}._count.text`) === '1/3');
    pet('Undo', '(s)', [ids['Write report']]);
    await waitFor('0/3 after its Undo', () => ev(`${PI}._count.text`) === '0/3');
});

test('the menu lists the next tasks; Done and Undo act through it', async () => {
    ev(`${PI}.menu.open()`);
    await waitFor('the menu open', () => ev(`${PI}.menu.isOpen`));
    equal(ev(`${PI}._taskItems.map(i => i._label.text)`),
        ['09:30  Write report', '10:00  Call the vet', '11:00  Water plants'], 'task rows');
    equal(ev(`${PI}._stageItem.label.text`), stageLine(entry()), 'stage line');
    shot('gnome-menu', [640, 0, 640, 420]);
    ev(`${PI}._taskItems[0]._done.emit('clicked', 1)`);
    await waitFor('the daemon has it done', () => tasks()['Write report'].done);
    await waitFor('1/3', () => ev(`${PI}._count.text`) === '1/3');
    await waitFor('an Undo item', () => ev(`${PI}._undoItem.visible`));
    equal(ev(`${PI}._undoItem.label.text`), 'Undo “Write report”', 'undo item');
    ev(`${PI}._undoItem.activate(null)`);
    await waitFor('the daemon has it pending again', () => !tasks()['Write report'].done);
    await waitFor('0/3', () => ev(`${PI}._count.text`) === '0/3');
});

test('Snooze acts through the menu', async () => {
    ev(`${PI}.menu.open()`);
    ev(`${PI}._taskItems[0]._snooze.emit('clicked', 1)`);
    await waitFor('the daemon has it snoozed', () => tasks()['Write report'].snoozed_until > 0);
    const snoozed = tasks()['Write report'];
    await waitFor('the row says so', () => ev(`${PI}._taskItems.map(i => i._label.text)`)
        .includes(`${snoozed.effective_time}  Write report (snoozed from 09:30)`));
});

test('Open Today launches petprogress://today', async () => {
    GLib.unlink(`${ROOT}/tmp/opened`);
    ev(`${PI}.menu.open()`);
    ev(`${menuItem('Open Today')}.activate(null)`);
    await waitFor('the handler ran', () => GLib.file_test(`${ROOT}/tmp/opened`, GLib.FileTest.EXISTS));
    equal(new TextDecoder().decode(GLib.file_get_contents(`${ROOT}/tmp/opened`)[1]).trim(), 'petprogress://today',
        'the link');
});

/** Types into the Add task form. */
function type(time, title) {
    ev(`${addForm}._timeEntry.text = ${JSON.stringify(time)}`);
    ev(`${addForm}._titleEntry.text = ${JSON.stringify(title)}`);
    return ev(`[${addForm}._message.visible ? ${addForm}._message.text : '', ${addForm}._addButton.reactive,
        ${addForm}._message.has_style_class_name('petprogress-error')]`);
}

test('Add task…: the time is checked as it is typed', async () => {
    ev(`${PI}.menu.open()`);
    ev(`${addForm}.setSubmenuShown(true)`);
    equal(type('', ''), ['', false, false], 'empty form');
    const [bad, badReady, badIsError] = type('25:00', 'Plan the week');
    check(bad.startsWith('25:00 is not a time of day') && !badReady && badIsError, `25:00: ${bad}`);
    const [hint, , hintIsError] = type('soon', 'Plan the week');
    check(hint.startsWith('Type a time such as') && hintIsError, `soon: ${hint}`);
    equal(type('7pm', ''), ['At 19:00: type a title.', false, false], 'no title yet');
    equal(type('7pm', 'Plan the week'), ['At 19:00.', true, false], 'ready');
    equal(type('+20m', 'Stretch'), ['20 min from now.', true, false], 'relative');
    type('7:05pm', 'Plan the week');
    shot('gnome-add-task', [640, 0, 640, 520]);
});

test('Add task…: added on the daemon, the form cleared', async () => {
    type('7pm', 'Plan the week');
    ev(`${addForm}._addButton.emit('clicked', 1)`);
    await waitFor('the daemon has it', () => tasks()['Plan the week'] !== undefined);
    equal(tasks()['Plan the week'].time, '19:00', 'its time');
    await waitFor('the form says so', () => ev(`${addForm}._message.text`) === 'Added “Plan the week” at 19:00.');
    equal(ev(`[${addForm}._timeEntry.text, ${addForm}._titleEntry.text]`), ['', ''], 'cleared');
    await waitFor('0/4', () => ev(`${PI}._count.text`) === '0/4');
});

test('Add task…: a time relative to now is on the daemon\'s clock', async () => {
    const before = pet('GetStatus')[0].now;
    type('+20m', 'Stretch');
    ev(`${addForm}._addButton.emit('clicked', 1)`);
    await waitFor('the daemon has it', () => tasks()['Stretch'] !== undefined);
    const after = pet('GetStatus')[0].now;
    // Rounded up to the next minute: any instant read between the two clock readings.
    const expected = [before, after].map(now => GLib.DateTime.new_from_unix_utc(Math.ceil((now + 1200) / 60) * 60)
        .format('%H:%M'));
    check(expected.includes(tasks()['Stretch'].time), `Stretch at ${tasks()['Stretch'].time}, expected ${expected}`);
});

test('Add task…: the daemon\'s refusal is shown in the menu, and nothing is added', async () => {
    const title = 'x'.repeat(201);
    const {name, message} = refusal('AddTask', '(ss)', [title, '18:00']);
    equal(name, `${PET}.Error.InvalidArgument`, 'the daemon refuses a 201-character title');
    const count = Object.keys(tasks()).length;
    type('18:00', title);
    ev(`${addForm}._addButton.emit('clicked', 1)`);
    await waitFor('the refusal in the menu', () => ev(`${addForm}._message.text`) === message);
    check(ev(`${addForm}._message.has_style_class_name('petprogress-error')`), 'shown as an error');
    equal(Object.keys(tasks()).length, count, 'nothing added');
    equal(ev(`${addForm}._titleEntry.text`), title, 'the form keeps what was typed');
    type('', '');
    ev(`${PI}.menu.close()`);
});

test('the daemon stopping shows off; its return, from the menu, restores the pet', async () => {
    const pid = call('org.freedesktop.DBus', '/org/freedesktop/DBus', 'org.freedesktop.DBus',
        'GetConnectionUnixProcessID', new GLib.Variant('(s)', [PET]))[0];
    const countBefore = ev(`${PI}._count.text`);
    Gio.Subprocess.new(['kill', '-TERM', String(pid)], Gio.SubprocessFlags.NONE).wait(null);
    await waitFor('the daemon gone', () => !hasOwner());
    await waitFor('off', () => ev(`${PI}._count.text`) === 'off');
    equal(ev(`[${PI}._icon.visible, ${PI}._glyph.visible, ${PI}._startItem.visible]`), [false, true, true],
        'the paw instead of the pet, and Start');
    // Back two minutes before the top of the hour, 20 simulated seconds to the real one.
    serviceFile('2026-03-02T10:58:00Z', 20);
    ev(`${PI}.menu.open()`);
    ev(`${PI}._startItem.activate(null)`);
    await waitFor('the daemon back', () => hasOwner(), 20000);
    await waitFor('the pet back', () => ev(`${PI}._icon.visible`) && ev(`${PI}._count.text`) !== 'off');
    equal(ev(`${PI}._count.text`).split(' ')[0], countBefore, 'the same count');
});

test('the hourly rule: the stage line moves at the top of the hour, the count at once', async () => {
    ev(`${PI}.menu.open()`);
    const before = ev(`[${PI}._state.entry.date, ${PI}._stageItem.label.text, ${PI}._count.text]`);
    ev(`${PI}._taskItems[0]._done.emit('clicked', 1)`);
    await waitFor('the count at once', () => ev(`${PI}._count.text`) !== before[2]);
    const [date, line] = ev(`[${PI}._state.entry.date, ${PI}._stageItem.label.text]`);
    if (date === before[0])
        equal(line, before[1], 'the stage line before the tick');
    await waitFor('the next tick', () => ev(`${PI}._state.entry.date`) > before[0], 60000);
    const ticked = entry();
    check(stageLine(ticked) !== before[1], `the XP moved at the tick: ${before[1]}`);
    await waitFor('the stage line of the tick', () => ev(`${PI}._stageItem.label.text`) === stageLine(ticked));
    ev(`${PI}.menu.close()`);
});

test('the Shell logged no error from the extension', () => {
    const [, bytes] = GLib.file_get_contents(`${ROOT}/tmp/shell.log`);
    const errors = new TextDecoder().decode(bytes).split('\n')
        .filter(line => /JS ERROR|Error|error/.test(line) && line.includes(UUID));
    equal(errors, [], 'errors naming the extension');
});

await run({stopAfterFailure: true});
