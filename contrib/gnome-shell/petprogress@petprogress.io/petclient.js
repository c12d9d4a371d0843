// Pet Progress's D-Bus client for the GNOME Shell extension. It imports nothing from the Shell, so
// it runs, and is tested, under plain `gjs -m` against the real daemon (contrib/gnome-shell/tests).

import Gio from 'gi://Gio';
import GLib from 'gi://GLib';

import {flipWait} from './flip.js';
import {_, fill} from './l10n.js';
import {recoveryOf} from './present.js';

export const BUS_NAME = 'io.petprogress.PetProgress1';
export const OBJECT_PATH = '/io/petprogress/PetProgress1';
export const INTERFACE = 'io.petprogress.PetProgress1';

/** The interface as the contract's XML (shipped beside this file) describes it: the proxy checks
 * replies against it and calls take their argument signatures from it, so none is spelled here. */
const INTERFACE_INFO = interfaceInfo('io.petprogress.PetProgress1.xml');

/** Long enough for D-Bus activation to start the daemon before a call times out. */
const CALL_TIMEOUT_MS = 25000;

/** The sentence for a session where nothing can start the daemon. */
function notInstalled() {
    return fill(_('Pet Progress is not installed for this session: no D-Bus service file starts %s.'), BUS_NAME);
}

/** A request that failed, with a sentence for a person and the D-Bus error name, if any. */
export class PetError extends Error {
    constructor(message, dbusName = '') {
        super(message);
        this.name = 'PetError';
        this.dbusName = dbusName;
    }
}

/**
 * The daemon as a panel sees it. `state` is `{running, entry, lastDone, recovery}`: whether the bus
 * name has an owner, the `WidgetEntry` property unpacked to a plain object (null until it is
 * known), the open day's most recent completion as `{id, title}` (null when there is none), and
 * the recovery keys of `GetStatus` (present.js `RECOVERY_KEYS`; null until read, or while the
 * daemon is not running).
 *
 * It follows `PropertiesChanged` and the name's owner and never polls; nothing it does while
 * watching starts the daemon. The daemon signals nothing about recoveries, so `GetStatus` is read
 * when the daemon appears (at start too) and whenever `refreshStatus()` is called (the menu
 * opening). Calls made for the user (`done`, `snooze`, `undo`, `acknowledgeProblems`,
 * `startDaemon`) may start it through D-Bus activation.
 */
export class PetClient {
    /**
     * `onChange(state)` runs after every change of `state`. Nothing happens until `start()`.
     */
    constructor({onChange = () => {}} = {}) {
        this._onChange = onChange;
        this._cancellable = new Gio.Cancellable();
        this._connection = null;
        this._proxy = null;
        this._signalIds = [];
        this._timerId = 0;
        // Bumped by every entry change: replies to reads begun before the latest change are dropped.
        this._generation = 0;
        // Bumped by every GetStatus read and owner change: only the latest read's reply is kept.
        this._statusGeneration = 0;
        this._owner = null;
        this._state = {running: false, entry: null, lastDone: null, recovery: null};
    }

    /** The current state (see the class comment). */
    get state() {
        return this._state;
    }

    /** Connects to the session bus and starts following the daemon. Resolves once the first state
     * is published; a `destroy()` meanwhile makes it resolve quietly. */
    async start() {
        try {
            this._connection = await busGet(this._cancellable);
            const proxy = await newProxy(this._connection, this._cancellable);
            if (this._cancellable.is_cancelled())
                return;
            this._proxy = proxy;
            this._signalIds = [
                proxy.connect('g-properties-changed', () => this._entryChanged()),
                proxy.connect('notify::g-name-owner', () => this._entryChanged()),
            ];
            this._entryChanged();
        } catch (error) {
            if (!isCancelled(error))
                throw error;
        }
    }

    /** Marks a task of the open day done; resolves to its XP award (2 on time, 1 late). */
    async done(id) {
        const reply = await this._call('MarkDone', [id]);
        return reply.deepUnpack()[0];
    }

    /** Snoozes a pending task; resolves to its new effective instant in Unix seconds. */
    async snooze(id) {
        const reply = await this._call('Snooze', [id]);
        return reply.deepUnpack()[0];
    }

    /** Undoes a completion of the open day. */
    async undo(id) {
        await this._call('Undo', [id]);
    }

    /** Adds a one-off task to the open day at `time` (`HH:MM`); resolves to its id. */
    async addTask(title, time) {
        const reply = await this._call('AddTask', [title, time]);
        return reply.deepUnpack()[0];
    }

    /** What a time typed relative to now needs (timeinput.js `resolve`): the daemon's clock, as
     * GetStatus's `now` in Unix seconds, and its ResetTime. May start the daemon. */
    async clock() {
        const status = (await this._call('GetStatus', [])).recursiveUnpack()[0];
        let reply;
        try {
            reply = await connectionCall(this._connection, BUS_NAME, OBJECT_PATH,
                'org.freedesktop.DBus.Properties', 'Get', new GLib.Variant('(ss)', [INTERFACE, 'ResetTime']),
                Gio.DBusCallFlags.NONE, this._cancellable);
        } catch (error) {
            throw petError(error);
        }
        return {now: status.now, resetTime: reply.recursiveUnpack()[0]};
    }

    /** Reads `GetStatus` again for the recovery notice, which no signal announces (the menu calls
     * this as it opens). Never starts the daemon and never fails: while the daemon is away, or
     * when the read fails, the state keeps what it had. */
    async refreshStatus() {
        if (!this._state.running)
            return;
        const generation = ++this._statusGeneration;
        let status;
        try {
            const reply = await this._call('GetStatus', [], Gio.DBusCallFlags.NO_AUTO_START);
            status = reply.recursiveUnpack()[0];
        } catch {
            return; // the daemon went away; the owner change publishes that
        }
        if (generation !== this._statusGeneration || !this._state.running)
            return;
        this._publish({...this._state, recovery: recoveryOf(status)});
    }

    /** The user has seen the recovery notice: `AcknowledgeProblems`, after which the state says
     * so at once and `GetStatus` is read again. */
    async acknowledgeProblems() {
        await this._call('AcknowledgeProblems', []);
        this._statusGeneration++; // a read begun before the acknowledgement is stale
        if (this._state.recovery) {
            this._publish({...this._state,
                recovery: {...this._state.recovery, problems_acknowledged: true, clock_behind: false}});
        }
        await this.refreshStatus();
    }

    /** The task records of a day ("" is the open day), as plain objects. */
    async listTasks(day = '') {
        const reply = await this._call('ListTasks', [day]);
        return reply.recursiveUnpack()[0];
    }

    /** Asks the bus to start the daemon (D-Bus activation); the state follows when it owns its name. */
    async startDaemon() {
        if (!this._connection)
            throw new PetError(_('Not connected to the session bus yet.'));
        try {
            await connectionCall(this._connection, 'org.freedesktop.DBus', '/org/freedesktop/DBus',
                'org.freedesktop.DBus', 'StartServiceByName', new GLib.Variant('(su)', [BUS_NAME, 0]),
                Gio.DBusCallFlags.NONE, this._cancellable);
        } catch (error) {
            throw petError(error);
        }
    }

    /** Stops following: disconnects every signal, drops the proxy and the timer, and cancels
     * what is in flight. No `onChange` runs after this. */
    destroy() {
        this._generation++; // drops any reply still on its way
        this._statusGeneration++;
        this._cancellable.cancel();
        for (const id of this._signalIds)
            this._proxy?.disconnect(id);
        this._signalIds = [];
        this._clearTimer();
        this._proxy = null;
        this._connection = null;
        this._onChange = () => {};
    }

    /** Recomputes the state from the proxy after a property change or an owner change. */
    _entryChanged() {
        this._generation++;
        const running = this._proxy?.g_name_owner != null;
        const cached = running ? this._proxy.get_cached_property('WidgetEntry') : null;
        const entry = cached ? cached.recursiveUnpack() : null;
        // A new owner (at start, or the daemon back or replaced) may have recovered: read GetStatus.
        const owner = this._proxy?.g_name_owner ?? null;
        const appeared = owner !== null && owner !== this._owner;
        if (owner !== this._owner)
            this._statusGeneration++; // a read from the previous owner is stale
        this._owner = owner;
        this._publish({
            running, entry,
            lastDone: running ? this._state.lastDone : null,
            recovery: running && !appeared ? this._state.recovery : null,
        });
        this._scheduleFlipReread(entry);
        if (entry)
            this._refreshLastDone(this._generation);
        if (appeared)
            this.refreshStatus();
    }

    /** Finds the open day's most recent completion: the done task with the highest sequence. */
    async _refreshLastDone(generation) {
        let tasks;
        try {
            const reply = await this._call('ListTasks', [''], Gio.DBusCallFlags.NO_AUTO_START);
            tasks = reply.recursiveUnpack()[0];
        } catch {
            return; // the daemon went away; the owner change publishes that
        }
        if (generation !== this._generation)
            return;
        const last = tasks.filter(t => t.done)
            .reduce((best, t) => (!best || t.completed_seq > best.completed_seq ? t : best), null);
        this._publish({...this._state, lastDone: last ? {id: last.id, title: last.title} : null});
    }

    /** Arms one timer for the moment the first shown task turns due or overdue (its record's
     * `due_at` and `overdue_at`), which the daemon never signals; at it the entry is read again.
     * The moment is on the daemon's clock and at its `time_scale` (GetStatus, never starting the
     * daemon), by petctl's rule (flip.js). */
    async _scheduleFlipReread(entry) {
        this._clearTimer();
        const generation = this._generation;
        if (flipWait(entry?.upcoming, 1, 1, 1) === null)
            return; // no flag left to turn, whatever the clocks say: no GetStatus
        let status;
        try {
            status = (await this._call('GetStatus', [], Gio.DBusCallFlags.NO_AUTO_START)).recursiveUnpack()[0];
        } catch {
            return; // the daemon went away; the owner change publishes that
        }
        if (generation !== this._generation)
            return;
        const wait = flipWait(entry.upcoming, status.now ?? 0, GLib.get_real_time() / 1e6, status.time_scale ?? 1);
        this._clearTimer();
        this._timerId = GLib.timeout_add(GLib.PRIORITY_DEFAULT, Math.ceil(wait * 1000), () => {
            this._timerId = 0;
            this._reread(this._generation);
            return GLib.SOURCE_REMOVE;
        });
    }

    /** Reads the entry by a call, for changes the daemon does not signal. */
    async _reread(generation) {
        let entry;
        try {
            const reply = await this._call('GetWidgetEntry', [], Gio.DBusCallFlags.NO_AUTO_START);
            entry = reply.recursiveUnpack()[0];
        } catch {
            return;
        }
        if (generation !== this._generation)
            return;
        this._publish({...this._state, entry});
        this._scheduleFlipReread(entry);
    }

    _clearTimer() {
        if (this._timerId)
            GLib.source_remove(this._timerId);
        this._timerId = 0;
    }

    _publish(state) {
        if (JSON.stringify(state) === JSON.stringify(this._state))
            return;
        this._state = state;
        this._onChange(state);
    }

    /** One method call on the daemon's interface, its arguments typed as the XML says; failures
     * become PetErrors. */
    async _call(method, args, flags = Gio.DBusCallFlags.NONE) {
        if (!this._proxy)
            throw new PetError(_('Not connected to the session bus yet.'));
        try {
            const parameters = new GLib.Variant(inSignature(method), args);
            return await proxyCall(this._proxy, method, parameters, flags, this._cancellable);
        } catch (error) {
            throw petError(error);
        }
    }
}

/** The interface description in the XML file `name` beside this module. */
function interfaceInfo(name) {
    const [path] = GLib.filename_from_uri(GLib.uri_resolve_relative(import.meta.url, name,
        GLib.UriFlags.NONE));
    const [, bytes] = GLib.file_get_contents(path);
    return Gio.DBusNodeInfo.new_for_xml(new TextDecoder().decode(bytes)).lookup_interface(INTERFACE);
}

/** The tuple signature of a method's arguments, from the XML, e.g. `(s)`. */
function inSignature(method) {
    const info = INTERFACE_INFO.lookup_method(method);
    if (!info)
        throw new PetError(`The interface has no method ${method}.`);
    return `(${info.in_args.map(arg => arg.signature).join('')})`;
}

/** True for the error a cancelled operation ends with. */
export function isCancelled(error) {
    return error instanceof GLib.Error && error.matches(Gio.IOErrorEnum, Gio.IOErrorEnum.CANCELLED);
}

/** A PetError carrying the daemon's own sentence (its D-Bus error message) when there is one. */
function petError(error) {
    if (error instanceof PetError)
        return error;
    if (!(error instanceof GLib.Error))
        return new PetError(String(error?.message ?? error));
    if (!Gio.DBusError.is_remote_error(error))
        return new PetError(error.message);
    const name = Gio.DBusError.get_remote_error(error) ?? '';
    Gio.DBusError.strip_remote_error(error);
    if (name === 'org.freedesktop.DBus.Error.ServiceUnknown')
        return new PetError(notInstalled(), name);
    return new PetError(error.message, name);
}

// Callback-to-promise wrappers, written out rather than Gio._promisify'd: an extension should not
// patch Gio's shared prototypes, and gjs 1.74 does not make these calls awaitable by itself.

function busGet(cancellable) {
    return new Promise((resolve, reject) => {
        Gio.bus_get(Gio.BusType.SESSION, cancellable, (_source, result) => {
            try {
                resolve(Gio.bus_get_finish(result));
            } catch (error) {
                reject(error);
            }
        });
    });
}

/** The proxy never starts the daemon while it watches (DO_NOT_AUTO_START_AT_CONSTRUCTION), yet
 * calls through it may. It subscribes to PropertiesChanged only (DO_NOT_CONNECT_SIGNALS): every
 * EntryChanged and TasksChanged comes with one. */
function newProxy(connection, cancellable) {
    const flags = Gio.DBusProxyFlags.DO_NOT_AUTO_START_AT_CONSTRUCTION |
        Gio.DBusProxyFlags.DO_NOT_CONNECT_SIGNALS;
    return new Promise((resolve, reject) => {
        Gio.DBusProxy.new(connection, flags, INTERFACE_INFO, BUS_NAME, OBJECT_PATH, INTERFACE, cancellable,
            (_source, result) => {
                try {
                    resolve(Gio.DBusProxy.new_finish(result));
                } catch (error) {
                    reject(error);
                }
            });
    });
}

function proxyCall(proxy, method, parameters, flags, cancellable) {
    return new Promise((resolve, reject) => {
        proxy.call(method, parameters, flags, CALL_TIMEOUT_MS, cancellable, (source, result) => {
            try {
                resolve(source.call_finish(result));
            } catch (error) {
                reject(error);
            }
        });
    });
}

function connectionCall(connection, name, path, iface, method, parameters, flags, cancellable) {
    return new Promise((resolve, reject) => {
        connection.call(name, path, iface, method, parameters, null, flags, CALL_TIMEOUT_MS,
            cancellable, (source, result) => {
                try {
                    resolve(source.call_finish(result));
                } catch (error) {
                    reject(error);
                }
            });
    });
}
