// TEST ONLY, never shipped: puts GNOME Shell in unsafe mode, which org.gnome.Shell.Eval and the
// Screenshot interface need when called from a script (Shell 48 has no command-line flag for it).
import {Extension} from 'resource:///org/gnome/shell/extensions/extension.js';

export default class ProbeUnsafe extends Extension {
    enable() {
        global.context.unsafe_mode = true;
    }

    disable() {
        global.context.unsafe_mode = false;
    }
}
