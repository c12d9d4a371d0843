// What the tests that drive the real GNOME Shell share (shell.test.js, shell-language.test.js): the
// session bus of the root scripts/check-gnome-shell.sh runs, Eval into the Shell, the daemon's
// methods and screenshots.

import Gio from 'gi://Gio';
import GLib from 'gi://GLib';

import {check} from './harness.js';

export const ROOT = GLib.getenv('PETPROGRESS_ROOT');
export const UUID = 'petprogress@petprogress.io';
export const PET = 'io.petprogress.PetProgress1';
const bus = Gio.DBus.session;
// The indicator, as the Shell's code sees it.
export const PI = `Main.panel.statusArea['${UUID}']`;

export function call(name, path, iface, method, args = null) {
    return bus.call_sync(name, path, iface, method, args, null, Gio.DBusCallFlags.NONE, 30000, null)
        .recursiveUnpack();
}

/** Evaluates JavaScript inside the Shell; returns its JSON-decoded value. */
export function ev(code) {
    const [ok, value] = call('org.gnome.Shell', '/org/gnome/Shell', 'org.gnome.Shell', 'Eval',
        new GLib.Variant('(s)', [code]));
    if (!ok)
        throw new Error(`Eval of ${code} failed: ${value}`);
    return value === '' ? undefined : JSON.parse(value);
}

/** A method of the daemon, with its D-Bus signature and arguments; the reply's values. */
export function pet(method, signature = null, args = []) {
    return call(PET, '/io/petprogress/PetProgress1', PET, method,
        signature ? new GLib.Variant(signature, args) : null);
}

/** Saves a screenshot of an area of the screen (paths are the root's) and checks it was written. */
export function shot(name, [x, y, width, height]) {
    const path = `/tmp/shots/${name}.png`;
    const [ok] = call('org.gnome.Shell.Screenshot', '/org/gnome/Shell/Screenshot', 'org.gnome.Shell.Screenshot',
        'ScreenshotArea', new GLib.Variant('(iiiibs)', [x, y, width, height, false, path]));
    check(ok && GLib.file_test(`${ROOT}${path}`, GLib.FileTest.EXISTS), `screenshot ${name}`);
}

