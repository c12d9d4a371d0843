// The test's side of the private bus that run.sh starts: the real daemon as a child process
// (stopped by its PID), raw calls on a connection of the test's own, and dbus-monitor.

import Gio from 'gi://Gio';
import GLib from 'gi://GLib';

import {BUS_NAME, INTERFACE, OBJECT_PATH} from '../petprogress@petprogress.io/petclient.js';
import {waitFor} from './harness.js';

const DAEMON = GLib.getenv('PETPROGRESSD');
export const TEST_DIR = GLib.getenv('PETPROGRESS_TEST_DIR');
const ADDRESS = GLib.getenv('DBUS_SESSION_BUS_ADDRESS');
if (!DAEMON || !TEST_DIR || !ADDRESS)
    throw new Error('run through run.sh: PETPROGRESSD, PETPROGRESS_TEST_DIR and the bus address are unset');

/** Notes a PID for run.sh's clean-up, in case this process dies before stopping it. */
export function recordPid(pid) {
    const stream = Gio.File.new_for_path(`${TEST_DIR}/pids`)
        .append_to(Gio.FileCreateFlags.NONE, null);
    stream.write_all(new TextEncoder().encode(`${pid}\n`), null);
    stream.close(null);
}

/** A child process, stopped by its PID. */
export class Child {
    constructor(argv, label) {
        const launcher = new Gio.SubprocessLauncher({flags: Gio.SubprocessFlags.STDOUT_SILENCE});
        launcher.set_stderr_file_path(`${TEST_DIR}/${label}.stderr`);
        this.label = label;
        this.process = launcher.spawnv(argv);
        this.pid = Number(this.process.get_identifier());
        recordPid(this.pid);
        this.exited = false;
        this.process.wait_async(null, () => {
            this.exited = true;
        });
    }

    /** Sends `signal` to the PID and waits (at most 10 s) for the exit. */
    async stop(signal = 15) {
        this.process.send_signal(signal);
        await waitFor(`${this.label} (${this.pid}) to exit`, () => this.exited, 10000);
    }
}

/** The real petprogressd on the private bus, with `--now` (and `--time-scale`) for a fixed day. */
export function startDaemon(dataDir, {now = '2026-03-02T08:10:00Z', timeScale = null} = {}) {
    const argv = [DAEMON, '--data-dir', dataDir, '--now', now];
    if (timeScale !== null)
        argv.push('--time-scale', String(timeScale));
    return new Child(argv, `petprogressd-${GLib.path_get_basename(dataDir)}`);
}

/** The D-Bus activation file for the daemon, in the bus's service directory (run.sh names it). */
export function writeActivationFile(dataDir) {
    const text = `[D-BUS Service]\nName=${BUS_NAME}\nExec=${DAEMON} --data-dir ${dataDir} --now 2026-03-02T08:10:00Z\n`;
    GLib.file_set_contents(`${TEST_DIR}/services/${BUS_NAME}.service`, text);
}

/** dbus-monitor's view of the method calls one connection makes, from now on. */
export class CallMonitor {
    constructor(uniqueName) {
        this._path = `${TEST_DIR}/monitor-${uniqueName.replace(/\W/g, '_')}.txt`;
        // A monitor of the same connection before: the launcher would write over its text, not
        // truncate it (and the old greeting would satisfy ready()).
        GLib.unlink(this._path);
        const launcher = new Gio.SubprocessLauncher({flags: Gio.SubprocessFlags.STDERR_SILENCE});
        launcher.set_stdout_file_path(this._path);
        this._child = launcher.spawnv(['dbus-monitor', '--address', ADDRESS, '--monitor',
            `type='method_call',sender='${uniqueName}'`]);
        recordPid(this._child.get_identifier());
    }

    /** Waits until dbus-monitor has printed its own greeting, so later calls are seen. */
    async ready() {
        await waitFor('dbus-monitor to start', () => this._text().includes('NameAcquired'), 10000);
    }

    /** The members of the calls seen so far. */
    members() {
        return [...this._text().matchAll(/^method call .* member=(\S+)/gm)].map(m => m[1]);
    }

    stop() {
        this._child.send_signal(15);
    }

    _text() {
        try {
            const [, bytes] = GLib.file_get_contents(this._path);
            return new TextDecoder().decode(bytes);
        } catch {
            return '';
        }
    }
}

/** A connection of the test's own, separate from the client's, for raw checks. Its calls never
 * start the daemon. */
export class RawBus {
    constructor() {
        this.connection = Gio.DBusConnection.new_for_address_sync(ADDRESS,
            Gio.DBusConnectionFlags.AUTHENTICATION_CLIENT | Gio.DBusConnectionFlags.MESSAGE_BUS_CONNECTION,
            null, null);
    }

    /** Calls a daemon method; the reply unpacked to plain values. */
    pet(method, signature = null, args = []) {
        const parameters = signature ? new GLib.Variant(signature, args) : null;
        return this.connection.call_sync(BUS_NAME, OBJECT_PATH, INTERFACE, method, parameters, null,
            Gio.DBusCallFlags.NO_AUTO_START, 10000, null).recursiveUnpack();
    }

    /** The open day's task records, by id. */
    tasks() {
        return Object.fromEntries(this.pet('ListTasks', '(s)', [''])[0].map(t => [t.id, t]));
    }

    /** Calls the bus driver. */
    driver(method, signature, args) {
        return this.connection.call_sync('org.freedesktop.DBus', '/org/freedesktop/DBus', 'org.freedesktop.DBus',
            method, new GLib.Variant(signature, args), null, Gio.DBusCallFlags.NONE, 10000, null).recursiveUnpack();
    }

    /** Calls dbus-daemon's statistics interface (Debian builds it with --enable-stats). */
    driverStats(method) {
        return this.connection.call_sync('org.freedesktop.DBus', '/org/freedesktop/DBus',
            'org.freedesktop.DBus.Debug.Stats', method, null, null, Gio.DBusCallFlags.NONE, 10000, null)
            .recursiveUnpack();
    }

    nameHasOwner() {
        return this.driver('NameHasOwner', '(s)', [BUS_NAME])[0];
    }

    ownerPid() {
        return this.driver('GetConnectionUnixProcessID', '(s)', [BUS_NAME])[0];
    }
}
