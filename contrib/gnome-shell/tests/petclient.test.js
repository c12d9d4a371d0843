// The extension's D-Bus client (petclient.js) under plain gjs, against the real petprogressd on
// the private bus run.sh starts. The tests run in order and build on each other: one day's data.

import Gio from 'gi://Gio';
import GLib from 'gi://GLib';
import GObject from 'gi://GObject';
import System from 'system';

import {BUS_NAME, INTERFACE, OBJECT_PATH, PetClient} from '../petprogress@petprogress.io/petclient.js';
import {present, recoveryNotice} from '../petprogress@petprogress.io/present.js';
import {CallMonitor, RawBus, TEST_DIR, recordPid, startDaemon, writeActivationFile} from './bus.js';
import {check, equal, rejection, run, sleep, test, waitFor} from './harness.js';

const berlin = GLib.TimeZone.new_identifier('Europe/Berlin');
const dataDir = `${TEST_DIR}/data`;
const raw = new RawBus();
let changes = 0;
const client = new PetClient({onChange: () => changes++});
let daemon = null;
let monitor = null;
const ids = {};

/** Unix seconds of a Berlin wall time on 2026-03-02. */
const berlinTime = (hour, minute) => GLib.DateTime.new(berlin, 2026, 3, 2, hour, minute, 0).to_unix();

test('watching does not start the daemon, though the bus could activate it', async () => {
    writeActivationFile(dataDir);
    await client.start();
    monitor = new CallMonitor(client._connection.get_unique_name());
    await monitor.ready();
    equal(client.state, {running: false, entry: null, lastDone: null, recovery: null}, 'state');
    equal(present(client.state).label, 'off', 'top bar');
    await sleep(500);
    check(!raw.nameHasOwner(), 'the daemon was started by watching');
});

test('it reads the entry when the daemon comes', async () => {
    daemon = startDaemon(dataDir);
    await waitFor('the entry', () => client.state.entry !== null);
    const entry = client.state.entry;
    equal([client.state.running, entry.tasks_total, entry.stage_name, entry.day_key],
        [true, 0, 'Tadpole', '2026-03-02'], 'entry');
    equal(entry, raw.pet('GetWidgetEntry')[0], 'the same entry as GetWidgetEntry');
    equal(present(client.state).label, '0/0', 'top bar');
});

test('AddTask by another client: the PropertiesChanged reaches it', async () => {
    for (const [title, time] of [['Write report', '09:30'], ['Call Anna', '10:00'], ['Water plants', '11:00'],
        ['Lunch walk', '12:00']])
        ids[title] = raw.pet('AddTask', '(ss)', [title, time])[0];
    await waitFor('four tasks', () => client.state.entry?.tasks_total === 4);
    const entry = client.state.entry;
    equal([entry.next_task_id, entry.next_task_title], [ids['Write report'], 'Write report'], 'next task');
    equal(entry.upcoming.map(t => t.title), ['Write report', 'Call Anna', 'Water plants'], 'upcoming');
    const view = present(client.state);
    equal(view.label, '0/4', 'top bar');
    equal(view.tasks.map(t => t.text), ['09:30  Write report', '10:00  Call Anna', '11:00  Water plants'], 'menu');
    equal(view.accessibleName, entry.accessible_text, 'accessible name');
});

test('Done on the next task: the daemon records it, the state follows, Undo offers it', async () => {
    const xp = await client.done(client.state.entry.next_task_id);
    equal(xp, 2, 'on time within the grace window');
    const stored = raw.tasks()[ids['Write report']];
    check(stored.done && stored.completed_seq > 0, `ListTasks shows it done: ${JSON.stringify(stored)}`);
    await waitFor('the completion in the state', () => client.state.entry.tasks_done === 1 &&
        client.state.lastDone?.id === ids['Write report']);
    equal(client.state.entry.next_task_title, 'Call Anna', 'the next task moved on');
    equal(present(client.state).undo, {id: ids['Write report'], label: 'Undo “Write report”'}, 'undo item');
});

test('Snooze one: its new time is the daemon\'s, and the menu says so', async () => {
    const until = await client.snooze(ids['Call Anna']);
    equal(until, berlinTime(10, 15), 'snoozed to 10:15 (its time + 15 min)');
    equal(raw.tasks()[ids['Call Anna']].snoozed_until, until, 'ListTasks');
    await waitFor('the snooze in the state', () => client.state.entry.upcoming[0].effective_time === '10:15');
    equal(present(client.state).tasks[0].text, '10:15  Call Anna (snoozed from 10:00)', 'menu row');
});

test('the last completion is the one with the highest completed_seq', async () => {
    await client.done(ids['Lunch walk']);
    await waitFor('Lunch walk as last', () => client.state.lastDone?.id === ids['Lunch walk']);
    await client.undo(ids['Lunch walk']);
    await waitFor('Write report as last again', () => client.state.lastDone?.id === ids['Write report']);
    check(!raw.tasks()[ids['Lunch walk']].done, 'Lunch walk is pending again');
});

test('Undo of the last completion', async () => {
    await client.undo(client.state.lastDone.id);
    check(!raw.tasks()[ids['Write report']].done, 'ListTasks shows it pending');
    await waitFor('no completion', () => client.state.lastDone === null && client.state.entry.tasks_done === 0);
    equal(present(client.state).undo, null, 'no undo item');
});

test('a rejected request: the daemon\'s sentence and error name, nothing changed', async () => {
    const before = JSON.stringify(raw.tasks());
    const missing = await rejection(client.done('20260302-999'), 'done of an unknown id');
    equal(missing.dbusName, 'io.petprogress.PetProgress1.Error.NotFound', 'error name');
    check(missing.message.length > 10 && !missing.message.includes('GDBus'), `a sentence: ${missing.message}`);
    const notDone = await rejection(client.undo(ids['Write report']), 'undo of a pending task');
    equal(notDone.dbusName, 'io.petprogress.PetProgress1.Error.NotDone', 'error name');
    equal(JSON.stringify(raw.tasks()), before, 'tasks');
});

test('AddTask from the client, and the daemon\'s clock for a time typed relative to now', async () => {
    const id = await client.addTask('Plan tomorrow', '17:45');
    equal(raw.tasks()[id]?.time, '17:45', 'ListTasks has it');
    await waitFor('the new task in the state', () => client.state.entry.tasks_total === 5);
    const {now, resetTime} = await client.clock();
    check(Math.abs(now - berlinTime(9, 10)) < 60, `GetStatus's now is the daemon's --now: ${now}`);
    equal(resetTime, '00:00', 'ResetTime');
    const refused = await rejection(client.addTask('x'.repeat(201), '18:00'), 'a 201-character title');
    equal(refused.dbusName, 'io.petprogress.PetProgress1.Error.InvalidArgument', 'error name');
    check(!refused.message.includes('GDBus'), `a sentence: ${refused.message}`);
    raw.pet('DeleteTask', '(s)', [id]);
    await waitFor('four tasks again', () => client.state.entry.tasks_total === 4);
});

test('the client never polls: it reads the property, and idles silently', async () => {
    // The reads the last change began (ListTasks for Undo, GetStatus for the flip timer) land first.
    await sleep(1000);
    const before = monitor.members().length;
    await sleep(3000);
    equal(monitor.members().slice(before), [], 'calls while idle for 3 s');
    check(!monitor.members().includes('GetWidgetEntry'), `no GetWidgetEntry: ${monitor.members()}`);
});

test('killed: "not running", and the bus is not asked to start it again', async () => {
    const callsBefore = monitor.members().length;
    await daemon.stop(9);
    await waitFor('not running', () => !client.state.running);
    equal(client.state, {running: false, entry: null, lastDone: null, recovery: null}, 'state');
    equal(present(client.state).label, 'off', 'top bar');
    await sleep(500);
    check(!raw.nameHasOwner(), 'the daemon was restarted by the client');
    equal(monitor.members().slice(callsBefore).filter(m => m === 'StartServiceByName'), [], 'activations');
});

test('restarted: it recovers, with the day\'s data', async () => {
    daemon = startDaemon(dataDir);
    await waitFor('running again', () => client.state.entry?.tasks_total === 4);
    equal(client.state.entry.upcoming[0].effective_time, '09:30', 'the same day');
    await daemon.stop();
    await waitFor('not running', () => !client.state.running);
});

test('Start from the menu: D-Bus activation starts the daemon', async () => {
    await client.startDaemon();
    await waitFor('running by activation', () => client.state.entry?.tasks_total === 4, 15000);
    const pid = raw.ownerPid();
    recordPid(pid);
    check(pid !== daemon.pid, 'a new daemon, started by the bus');
    GLib.spawn_command_line_sync(`kill -TERM ${pid}`);
    await waitFor('not running', () => !client.state.running);
});

test('destroy(): no proxy signal stays connected and no callback runs after it', async () => {
    daemon = startDaemon(dataDir);
    await waitFor('running', () => client.state.entry?.tasks_total === 4);
    const proxy = client._proxy;
    const handlers = [...client._signalIds];
    check(handlers.length === 2 && handlers.every(id => GObject.signal_handler_is_connected(proxy, id)),
        'two handlers before');
    client.destroy();
    check(handlers.every(id => !GObject.signal_handler_is_connected(proxy, id)), 'handlers still connected');
    check(client._proxy === null && client._timerId === 0, 'proxy or timer kept');
    const seen = changes;
    raw.pet('AddTask', '(ss)', ['After destroy', '13:00']);
    await daemon.stop(9);
    await sleep(500);
    equal(changes, seen, 'callbacks after destroy');
});

test('a task turning due, then overdue, which is never signalled, is read again at each instant', async () => {
    // The daemon's clock runs 120 times fast from 09:10, so 09:30 comes 10 s after its start;
    // with a 20-minute grace the task is overdue from 09:50:01, 10 s later. The client times each
    // re-read on the daemon's clock at its time_scale (GetStatus), as petctl does (flip.js).
    const fast = startDaemon(`${TEST_DIR}/overdue`, {timeScale: 120});
    const seen = [];
    const late = new PetClient({onChange: state => seen.push(present(state))});
    await late.start();
    await waitFor('the entry', () => late.state.entry !== null);
    raw.connection.call_sync(BUS_NAME, OBJECT_PATH, 'org.freedesktop.DBus.Properties', 'Set',
        new GLib.Variant('(ssv)', [INTERFACE, 'GraceMinutes', new GLib.Variant('u', 20)]), null,
        Gio.DBusCallFlags.NO_AUTO_START, 10000, null);
    raw.pet('AddTask', '(ss)', ['Stand up', '09:30']);
    const added = raw.pet('GetWidgetEntry')[0];
    check(!added.next_task_due && !added.next_task_overdue,
        'the task was due when added: this machine is too slow for the 120x clock');
    equal([added.upcoming[0].due_at, added.upcoming[0].overdue_at], [berlinTime(9, 30), berlinTime(9, 50) + 1],
        'the record says when');
    await waitFor('the task to show due', () => seen.some(view => view.due), 30000);
    await waitFor('the task to show overdue', () => late.state.entry?.next_task_overdue === true, 30000);
    const states = seen.filter(view => view.running && view.tasks.length > 0)
        .map(view => (view.overdue ? 'overdue' : view.due ? 'due' : 'pending'));
    equal(states.filter((state, i) => state !== states[i - 1]), ['pending', 'due', 'overdue'], 'in that order');
    equal(late.state.entry.date, berlinTime(9, 0), 'still the 09:00 snapshot: no tick brought it');
    check(monitor.members().includes('GetWidgetEntry'), 'read by GetWidgetEntry');
    equal(present(late.state).label, '0/1 !', 'top bar');
    late.destroy();
    await fast.stop();
    monitor.stop();
});

// A damaged state.json (petprogress(7) §5): two days of use leave the snapshot of 2026-03-02's
// closeout, then the state file is destroyed, as Tests/IntegrationTests/RecoveryTests.swift does.
const damagedDir = `${TEST_DIR}/damaged`;
const rescued = new PetClient();
let recoveredDaemon = null;

/** Overwrites the state file with a torn document, which no load can use. */
function destroyStateFile() {
    GLib.file_set_contents(`${damagedDir}/state.json`, '{"schema":2,"wor');
}

/** The notice the view shows now, or null. */
const shownNotice = () => present(rescued.state).notice;

test('a recovered state file: the client reads the recovery from GetStatus as the daemon appears', async () => {
    for (const now of ['2026-03-02T08:10:00Z', '2026-03-03T08:10:00Z']) {
        const day = startDaemon(damagedDir, {now});
        await waitFor('the daemon', () => raw.nameHasOwner());
        raw.pet('AddTask', '(ss)', ['Stretch', '08:00']);
        await day.stop();
        await waitFor('the name released', () => !raw.nameHasOwner());
    }
    check(GLib.file_test(`${damagedDir}/state-2026-03-02.json`, GLib.FileTest.EXISTS), 'the snapshot');
    destroyStateFile();
    await rescued.start();
    equal(rescued.state.recovery, null, 'nothing read while the daemon is away');
    recoveredDaemon = startDaemon(damagedDir, {now: '2026-03-03T09:00:00Z'});
    await waitFor('the recovery in the state', () => rescued.state.recovery !== null);
    const status = raw.pet('GetStatus')[0];
    equal([status.recovery_source, status.recovery_day, status.recovery_lost, status.problems_acknowledged],
        ['snapshot', '2026-03-02', 'changes since the closeout of 2026-03-02', false], 'GetStatus');
    equal(shownNotice()?.text, `⚠ ${status.recovery} Lost: changes since the closeout of 2026-03-02.`, 'the line');
    equal(shownNotice(), recoveryNotice(status), 'the same notice as from the raw reply');
});

test('the recovery is not polled: idle, the client makes no calls', async () => {
    const calls = new CallMonitor(rescued._connection.get_unique_name());
    await calls.ready();
    await sleep(2000);
    equal(calls.members(), [], 'calls while idle for 2 s');
    calls.stop();
});

test('unacknowledged, the notice comes back after a restart', async () => {
    await recoveredDaemon.stop();
    await waitFor('not running', () => !rescued.state.running);
    equal([rescued.state.recovery, shownNotice()], [null, null], 'nothing shown while it is away');
    recoveredDaemon = startDaemon(damagedDir, {now: '2026-03-03T09:30:00Z'});
    await waitFor('the notice again', () => shownNotice() !== null);
});

test('Hide: AcknowledgeProblems, the line goes, GetStatus says acknowledged, after a restart too', async () => {
    const calls = new CallMonitor(rescued._connection.get_unique_name());
    await calls.ready();
    await rescued.acknowledgeProblems();
    equal(shownNotice(), null, 'the line is gone');
    const status = raw.pet('GetStatus')[0];
    equal([status.problems_acknowledged, status.recovery_source], [true, 'snapshot'], 'GetStatus');
    check(status.recovery !== '', 'the recovery stays reported');
    equal(rescued.state.recovery.problems_acknowledged, true, 'the client\'s state');
    await waitFor('the calls seen', () => calls.members().includes('GetStatus'));
    equal(calls.members(), ['AcknowledgeProblems', 'GetStatus'], 'calls');
    calls.stop();
    await recoveredDaemon.stop();
    await waitFor('not running', () => !rescued.state.running);
    recoveredDaemon = startDaemon(damagedDir, {now: '2026-03-03T10:00:00Z'});
    await waitFor('the status read', () => rescued.state.recovery !== null);
    equal([rescued.state.recovery.problems_acknowledged, shownNotice()], [true, null], 'still hidden');
});

test('acknowledged by another client: the line goes at the next read (the menu opening)', async () => {
    await recoveredDaemon.stop();
    await waitFor('not running', () => !rescued.state.running);
    destroyStateFile();
    recoveredDaemon = startDaemon(damagedDir, {now: '2026-03-03T10:30:00Z'});
    await waitFor('a new notice', () => shownNotice() !== null);
    raw.pet('AcknowledgeProblems');
    await sleep(300);
    check(shownNotice() !== null, 'no signal says so: the line stays until the next read');
    await rescued.refreshStatus();
    equal(shownNotice(), null, 'gone after the read');
    rescued.destroy();
    await recoveredDaemon.stop();
});

test('with both clients destroyed and collected, their match rules leave the bus', async () => {
    const unique = client._connection?.get_unique_name() ?? Gio.DBus.session.get_unique_name();
    const rules = () => raw.driverStats('GetAllMatchRules')[0][unique] ?? [];
    check(rules().some(rule => rule.includes('io.petprogress')), `rules before: ${rules()}`);
    // A proxy's wrapper is released over a collection or two and a main-loop turn: collect on
    // every check.
    await waitFor('no io.petprogress match rule', () => {
        System.gc();
        return !rules().some(rule => rule.includes('io.petprogress'));
    }, 10000);
});

await run({stopAfterFailure: true});
