/*
 * Pet Progress in Plasma's panel (petprogress(7) §8): the pet and X/Y in the panel, a small Today
 * screen in the popup. Pure QML: the daemon is reached with Plasma's org.kde.plasma.workspace.dbus
 * (SessionBus.asyncCall, Plasma 6.2 and later), activated on first use like any other client.
 *
 * When it reads the daemon (docs/DECISIONS.md, "The Plasma widget's re-read rule"): when the popup
 * opens, after each of its own actions, and at the moments the entry names — its next tick and the
 * shown tasks' due_at and overdue_at (moments.js) — never on an interval. Where the module has
 * SignalWatcher (Plasma 6.4 and later), EntryChanged and TasksChanged also re-read at once. The pet
 * part it shows is the daemon's visible snapshot, which changes only at ticks.
 */
import QtQuick
import QtQuick.Layouts
import org.kde.plasma.plasmoid
import org.kde.plasma.core as PlasmaCore
import org.kde.kirigami as Kirigami
import org.kde.plasma.workspace.dbus as DBus

import "../code/clock.js" as Clock
import "../code/moments.js" as Moments

PlasmoidItem {
    id: root

    readonly property string busName: "io.petprogress.PetProgress1"
    readonly property string busPath: "/io/petprogress/PetProgress1"

    /** The widget entry (petprogress(7) §6.2) as plain values; null until read. */
    property var entry: null
    /** The daemon answered the last read; false while it cannot be reached. */
    property bool running: false
    /** Something was read at least once (before: "starting"). */
    property bool known: false
    /** GetStatus's reply as plain values (now, open_day_end, time_scale, recovery, …). */
    property var status: ({})
    /** The most recent completion of the open day, which Undo undoes: {id, title} or null. */
    property var lastDone: null
    /** What the last action said (an error, or "Added …"); empty hides it. */
    property string message: ""
    property bool messageIsError: false
    /** Signals reach the widget (SignalWatcher, Plasma 6.4 and later). */
    property bool signalsWatched: false
    /** Reads under way, and one more asked for while they were. */
    property int reading: 0
    property bool readAgain: false
    /** The daemon's clock at the last read and the real time then, for the moments. */
    property real daemonNow: 0
    property real readAt: 0
    /** The open day's tasks not done yet, in order (ListTasks), at most 50. */
    property var tasks: []

    readonly property bool overdue: running && entry !== null && entry.next_task_overdue === true
    readonly property bool due: running && entry !== null && !overdue && entry.next_task_due === true
    readonly property bool restDay: running && entry !== null && entry.rest_day === true
    readonly property string iconName: running && entry && entry.icon_name ? entry.icon_name + "-symbolic" : "petprogress-tadpole-symbolic"
    readonly property string countText: {
        if (!running)
            return known ? i18nc("@label the panel's word while the daemon is not running", "off") : "…";
        if (!entry)
            return "…";
        let text = (entry.tasks_done || 0) + "/" + (entry.tasks_total || 0);
        if (overdue)
            text += " !";
        return text;
    }
    readonly property string nextText: running && entry && entry.next_task_id
        ? Clock.clockTime(entry.next_task_time, Qt.locale()) + " " + entry.next_task_title : ""
    /** One sentence for screen readers, and the tooltip. */
    readonly property string accessibleText: {
        if (!running)
            return known ? i18n("Pet Progress is not running.") : i18n("Pet Progress is starting.");
        if (!entry)
            return i18n("Pet Progress is starting.");
        const parts = [i18nc("@info:tooltip form, position and XP", "%1, stage %2 of %3, %4.", formName(entry.stage_name),
                             entry.stage_index + 1, entry.stage_count, xpText(entry)),
                       i18np("%2 of %1 task done.", "%2 of %1 tasks done.", entry.tasks_total || 0, entry.tasks_done || 0)];
        if (entry.next_task_id)
            parts.push(i18nc("@info:tooltip", "Next: %1 %2.", Clock.clockTime(entry.next_task_time, Qt.locale()), entry.next_task_title)
                       + (overdue ? " " + i18n("Overdue.") : due ? " " + i18n("Due now.") : ""));
        if (restDay)
            parts.push(i18n("Rest day."));
        return parts.join(" ");
    }
    /** The recovery and clock notices (GetStatus), until the user hides them. */
    readonly property var notices: {
        const s = status || {};
        if (!running)
            return [];
        const list = [];
        const recovery = typeof s.recovery === "string" ? s.recovery.trim() : "";
        if (recovery && s.problems_acknowledged !== true) {
            const lost = typeof s.recovery_lost === "string" ? s.recovery_lost.trim() : "";
            list.push({kind: "recovery", text: lost ? i18nc("@info the daemon's sentence, then what was lost", "%1 Lost: %2.", recovery, lost) : recovery});
        }
        // clock_behind is a boolean, true only while unacknowledged (petprogress(7) §3.1), whatever
        // problems_acknowledged says of an earlier recovery.
        if (s.clock_behind === true) {
            const day = typeof s.open_day === "string" ? s.open_day : "";
            const snapshot = typeof s.clock_behind_snapshot === "string" ? s.clock_behind_snapshot.trim() : "";
            list.push({kind: "clock", text: snapshot
                ? i18nc("@info the clock was set ahead and came back; %1 the open day, %2 a snapshot's file name (the command is not translated)", "Clock behind the open day %1: petctl restore %2 goes back", day, snapshot)
                : i18nc("@info the clock was set ahead and came back; %1 the open day", "Clock behind the open day %1: nothing was changed", day)});
        }
        return list;
    }

    Plasmoid.icon: iconName
    Plasmoid.title: i18n("Pet Progress")
    Plasmoid.status: PlasmaCore.Types.ActiveStatus
    toolTipMainText: i18n("Pet Progress")
    toolTipSubText: accessibleText
    Plasmoid.backgroundHints: PlasmaCore.Types.DefaultBackground | PlasmaCore.Types.ConfigurableBackground

    switchWidth: Kirigami.Units.gridUnit * 12
    switchHeight: Kirigami.Units.gridUnit * 12

    compactRepresentation: CompactRepresentation {}
    fullRepresentation: FullRepresentation {}

    Plasmoid.contextualActions: [
        PlasmaCore.Action {
            text: i18nc("@action", "Mark next done")
            icon.name: "checkmark"
            enabled: root.running && root.entry !== null && root.entry.next_task_id !== ""
            onTriggered: root.act("MarkNextDone", [], "")
        },
        PlasmaCore.Action {
            text: i18nc("@action", "Snooze next")
            icon.name: "chronometer"
            enabled: root.running && root.entry !== null && root.entry.next_task_id !== ""
            onTriggered: root.act("SnoozeNext", [], "")
        },
        PlasmaCore.Action {
            text: i18nc("@action", "Open Today")
            icon.name: "view-calendar-day"
            onTriggered: root.openToday()
        }
    ]

    onExpandedChanged: if (root.expanded) refresh()
    Component.onCompleted: {
        watchSignals();
        refresh();
    }

    /** The next moment the entry names; re-armed after every read. */
    Timer {
        id: moment
        repeat: false
        onTriggered: root.refresh()
    }

    /** Test aid: with QT_LOGGING_RULES="io.petprogress.plasmoid.debug=true", every read logs what
     * the popup shows (scripts/check-plasma-widget.sh); silent otherwise. QML's console formats
     * its arguments whether or not the category is on, so the (bounded) walk runs after every read. */
    LoggingCategory {
        id: viewLog
        name: "io.petprogress.plasmoid"
        defaultLogLevel: LoggingCategory.Warning
    }
    property Item shownPopup: null
    Timer {
        id: logSoon
        interval: 250
        onTriggered: root.logView()
    }

    // --- reading the daemon ---

    /** A D-Bus value as plain JavaScript: variants unwrapped, numbers as numbers. */
    function plain(value, depth) {
        const d = depth || 0;
        if (value === null || value === undefined || d > 8)
            return value;
        if (Array.isArray(value))
            return value.slice(0, 512).map(v => plain(v, d + 1));
        if (typeof value === "object") {
            if (value instanceof Date)
                return value;
            const keys = Object.keys(value);
            // A D-Bus array (aa{sv}) arrives as a list-like object: indices, and maybe a length.
            const length = typeof value.length === "number" ? value.length
                : keys.length > 0 && keys.every((k, i) => k === String(i)) ? keys.length : -1;
            if (length >= 0) {
                const list = [];
                for (let i = 0; i < length && i < 512; i++)
                    list.push(plain(value[i], d + 1));
                return list;
            }
            // The module's typed wrappers (a uint64 as {value: N}, a variant) hold one value.
            if (keys.length === 1 && keys[0] === "value" && typeof value.value !== "object")
                return value.value;
            if (keys.length === 0 && value.valueOf !== undefined && value.valueOf() !== value)
                return plain(value.valueOf(), d + 1);
            const out = {};
            for (const key of keys.slice(0, 128))
                out[key] = plain(value[key], d + 1);
            return out;
        }
        return value;
    }

    function call(member, args, signature, done, failed) {
        const message = {
            "service": busName,
            "path": busPath,
            "iface": busName,
            "member": member,
            "arguments": args,
        };
        if (signature)
            message["signature"] = signature;
        const reply = DBus.SessionBus.asyncCall(message);
        reply.finished.connect(function () {
            if (reply.isError || !reply.isValid) {
                if (failed)
                    failed(reply.error ? String(reply.error.name) : "", reply.error ? String(reply.error.message) : "");
            } else if (done) {
                done(reply.values.map(v => plain(v)));
            }
        });
    }

    /** Reads the entry, the open day's tasks (for Undo) and the status; coalesces overlapping asks. */
    function refresh() {
        if (reading > 0) {
            readAgain = true;
            return;
        }
        reading = 3;
        let failures = 0;
        const finish = function () {
            reading -= 1;
            if (reading > 0)
                return;
            known = true;
            running = failures === 0;
            armMoment();
            logSoon.restart();  // once the popup has laid out what it read
            if (readAgain) {
                readAgain = false;
                refresh();
            }
        };
        const fail = function (name) {
            failures += 1;
            finish();
        };
        call("GetWidgetEntry", [], "", function (values) {
            const read = values[0] && typeof values[0] === "object" ? values[0] : null;
            if (read && !Array.isArray(read.upcoming))
                read.upcoming = [];
            entry = read;
            finish();
        }, fail);
        call("ListTasks", [""], "(s)", function (values) {
            // An empty array arrives as "" from Plasma 6.3's decoder.
            const tasks = Array.isArray(values[0]) ? values[0] : [];
            let last = null;
            for (const t of tasks)
                if (t.done && (last === null || Number(t.completed_seq) > Number(last.completed_seq)))
                    last = t;
            lastDone = last ? {id: last.id, title: last.title, completed_seq: last.completed_seq} : null;
            root.tasks = tasks.filter(t => !t.done).slice(0, 50);
            finish();
        }, fail);
        call("GetStatus", [], "", function (values) {
            status = values[0] || {};
            daemonNow = Number(status.now) || Date.now() / 1000;
            readAt = Date.now();
            finish();
        }, fail);
    }

    function armMoment() {
        moment.stop();
        if (!running || !entry)
            return;
        // The daemon's clock in whole seconds, as it reads it (petctl's flip rule).
        const wait = Moments.nextWaitMs(entry, root.tasks, Math.floor(daemonClock()), Date.now() / 1000,
                                        Number(status.time_scale) || 1);
        if (wait === null)
            return;
        moment.interval = wait;
        moment.start();
    }

    /** SignalWatcher where the module has it (Plasma 6.4 and later); created at run time, so that
     * Plasma 6.2 and 6.3, whose module lacks the type, load the widget all the same. */
    function watchSignals() {
        try {
            Qt.createQmlObject(`
                import QtQuick
                import org.kde.plasma.workspace.dbus as DBus
                DBus.SignalWatcher {
                    busType: DBus.BusType.Session
                    service: "io.petprogress.PetProgress1"
                    path: "/io/petprogress/PetProgress1"
                    iface: "io.petprogress.PetProgress1"
                    function dbusEntryChanged(entry) { root.refresh() }
                    function dbusTasksChanged() { root.refresh() }
                }`, root, "signalwatcher");
            signalsWatched = true;
        } catch (error) {
            signalsWatched = false;
        }
    }

    // --- acting ---

    /** Calls a member that changes something, then re-reads; `what` is said on success. */
    function act(member, args, signature, what) {
        message = "";
        call(member, args, signature, function () {
            if (what) {
                message = what;
                messageIsError = false;
            }
            refresh();
        }, function (name, text) {
            message = text || name;
            messageIsError = true;
            refresh();
        });
    }

    function markDone(id) { act("MarkDone", [id], "(s)", ""); }
    function snooze(id) { act("Snooze", [id], "(s)", ""); }
    function undo(id) { act("Undo", [id], "(s)", ""); }
    function hideNotices() { act("AcknowledgeProblems", [], "", ""); }
    function addTask(title, time) {
        act("AddTask", [title, time], "(ss)", i18nc("@info", "Added “%1” at %2.", title, Clock.clockTime(time, Qt.locale())));
    }

    /** The daemon's clock now: its last reading moved on by the real time since, at its scale. */
    function daemonClock() {
        if (daemonNow <= 0)
            return Date.now() / 1000;
        return daemonNow + (Date.now() - readAt) / 1000 * (Number(status.time_scale) || 1);
    }

    function openToday() {
        Qt.openUrlExternally("petprogress://today");
    }

    // --- words ---

    /** A pet form's name in the user's language (the daemon sends the default table's English). */
    function formName(name) {
        switch (name) {
        case "Tadpole": return i18nc("pet form", "Tadpole");
        case "Minnow": return i18nc("pet form", "Minnow");
        case "Frog": return i18nc("pet form", "Frog");
        case "Hermit Crab": return i18nc("pet form", "Hermit Crab");
        case "Starfish": return i18nc("pet form", "Starfish");
        case "Jellyfish": return i18nc("pet form", "Jellyfish");
        case "Squid": return i18nc("pet form", "Squid");
        case "Seahorse": return i18nc("pet form", "Seahorse");
        case "Dolphin": return i18nc("pet form", "Dolphin");
        case "Shark": return i18nc("pet form", "Shark");
        case "Otter": return i18nc("pet form", "Otter");
        case "Fox": return i18nc("pet form", "Fox");
        case "Lynx": return i18nc("pet form", "Lynx");
        case "Wolf": return i18nc("pet form", "Wolf");
        case "Bear": return i18nc("pet form", "Bear");
        case "Bison": return i18nc("pet form", "Bison");
        case "Elephant": return i18nc("pet form", "Elephant");
        case "Rhino": return i18nc("pet form", "Rhino");
        case "Lion": return i18nc("pet form", "Lion");
        case "Floating God": return i18nc("pet form", "Floating God");
        default: return name || "";
        }
    }

    function xpText(e) {
        return e.is_final ? i18nc("@info", "final form, %1 XP", e.stage_xp)
                          : i18nc("@info", "%1 of %2 XP", e.stage_xp, e.threshold);
    }

    /** What the popup shows, for the test's log (see viewLog): every visible item's text and
     * accessible name, and where each button is in the window. */
    function logView() {
        const items = [];
        const walk = function (item, depth) {
            if (!item || depth > 40 || items.length > 400 || !item.visible)
                return;
            const text = item.text !== undefined && typeof item.text === "string" ? item.text : "";
            const name = item.Accessible ? item.Accessible.name : "";
            const role = item.Accessible ? item.Accessible.role : 0;
            if (text || name || item.activeFocusOnTab) {
                const p = item.mapToItem(null, item.width / 2, item.height / 2);
                items.push({text: text, name: name || "", role: role, x: Math.round(p.x), y: Math.round(p.y),
                            button: item.clicked !== undefined, field: item.selectAll !== undefined});
            }
            for (let i = 0; i < item.children.length; i++)
                walk(item.children[i], depth + 1);
        };
        walk(shownPopup || root, 0);
        console.debug(viewLog, "view " + JSON.stringify({running: running, signals: signalsWatched,
            count: countText, tooltip: accessibleText, moment: moment.running ? moment.interval : -1, items: items}));
    }
}
