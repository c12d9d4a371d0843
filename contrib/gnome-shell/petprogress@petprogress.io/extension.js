// Pet Progress in the GNOME Shell top bar (Shell 45 and later). This file only draws: the D-Bus
// logic is petclient.js and what to say is present.js, both free of Shell imports and tested
// under plain gjs (contrib/gnome-shell/tests).

import Clutter from 'gi://Clutter';
import Gio from 'gi://Gio';
import GLib from 'gi://GLib';
import GObject from 'gi://GObject';
import Pango from 'gi://Pango';
import St from 'gi://St';

import {Extension, gettext as _} from 'resource:///org/gnome/shell/extensions/extension.js';
import * as Main from 'resource:///org/gnome/shell/ui/main.js';
import * as PanelMenu from 'resource:///org/gnome/shell/ui/panelMenu.js';
import * as PopupMenu from 'resource:///org/gnome/shell/ui/popupMenu.js';

import {fill} from './l10n.js';
import {PetClient, isCancelled} from './petclient.js';
import {MENU_TASKS, TODAY_URI, present} from './present.js';
import {parseTime, resolve} from './timeinput.js';
import {clockTime} from './wallclock.js';

/** A label that ellipsizes instead of widening the menu. */
function ellipsizedLabel(styleClass) {
    const label = new St.Label({style_class: styleClass, x_expand: true, y_align: Clutter.ActorAlign.CENTER});
    label.clutter_text.ellipsize = Pango.EllipsizeMode.END;
    return label;
}

/** A line of text in the menu that cannot be activated. */
const InfoItem = GObject.registerClass(
class InfoItem extends PopupMenu.PopupBaseMenuItem {
    _init(styleClass) {
        super._init({reactive: false, can_focus: false});
        this.label = ellipsizedLabel(styleClass);
        this.add_child(this.label);
        this.label_actor = this.label;
    }

    /** Shows `text`, or hides the line when it is empty. */
    setText(text) {
        this.label.text = text;
        this.visible = text !== '';
    }
});

/** One upcoming task: its time and title, and Done and Snooze buttons. */
const TaskItem = GObject.registerClass(
class TaskItem extends PopupMenu.PopupBaseMenuItem {
    _init(onDone, onSnooze) {
        super._init({reactive: false, can_focus: false});
        this._taskId = '';
        this._label = ellipsizedLabel('petprogress-task');
        this.add_child(this._label);
        // TRANSLATORS: a task's button in the menu: marks it done.
        this._done = this._button(_('Done'), () => onDone(this._taskId));
        // TRANSLATORS: a task's button in the menu: moves it later.
        this._snooze = this._button(_('Snooze'), () => onSnooze(this._taskId));
    }

    _button(text, onClicked) {
        const button = new St.Button({
            label: text, style_class: 'button petprogress-button', can_focus: true,
            y_align: Clutter.ActorAlign.CENTER,
        });
        button.connect('clicked', onClicked);
        this.add_child(button);
        return button;
    }

    /** Shows a task line from present.js, or hides the row for null. */
    setTask(task) {
        this.visible = task !== null;
        if (!task)
            return;
        this._taskId = task.id;
        this._label.text = task.text;
        const state = task.overdue ? ' petprogress-overdue' : task.due ? ' petprogress-due' : '';
        this._label.style_class = `petprogress-task${state}`;
        this._done.accessible_name = fill(_('Done: %s'), task.accessibleText);
        this._snooze.accessible_name = fill(_('Snooze: %s'), task.accessibleText);
    }
});

/** The recovery notice and the clock line (present.js `recoveryNotice`, `clockNotice`): one line
 * each, and a button that acknowledges it. */
const NoticeItem = GObject.registerClass(
class NoticeItem extends PopupMenu.PopupBaseMenuItem {
    _init(onHide) {
        super._init({reactive: false, can_focus: false});
        this._label = ellipsizedLabel('petprogress-notice');
        this.add_child(this._label);
        this._hide = new St.Button({
            style_class: 'button petprogress-button', can_focus: true, y_align: Clutter.ActorAlign.CENTER,
        });
        this._hide.connect('clicked', () => onHide());
        this.add_child(this._hide);
        this.visible = false;
    }

    /** Shows a notice from present.js, or hides the line for null. */
    setNotice(notice) {
        this.visible = notice !== null;
        if (!notice)
            return;
        this._label.text = notice.text;
        this.accessible_name = notice.accessibleText;
        this._hide.label = notice.hideLabel;
        this._hide.accessible_name = notice.hideAccessibleName;
    }
});

/**
 * "Add task…": a submenu with a time field (the forgiving input of timeinput.js, checked as it is
 * typed), a title field and an Add button. `onAdd(parsed, title)` adds the task and resolves to
 * its `HH:MM`, or rejects with the sentence to show (the daemon's refusal, for one).
 */
const AddTaskItem = GObject.registerClass(
class AddTaskItem extends PopupMenu.PopupSubMenuMenuItem {
    _init(onAdd) {
        super._init(_('Add task…'));
        this._onAdd = onAdd;
        this._busy = false;
        const form = new PopupMenu.PopupBaseMenuItem({reactive: false, can_focus: false});
        const column = new St.BoxLayout({vertical: true, x_expand: true});
        const row = new St.BoxLayout({style_class: 'petprogress-add-row', x_expand: true});
        this._timeEntry = new St.Entry({
            style_class: 'petprogress-add-time', hint_text: '14:30', can_focus: true,
            accessible_name: _('Time, such as 14:30, 7pm or +20m'),
        });
        this._titleEntry = new St.Entry({
            style_class: 'petprogress-add-title', hint_text: _('Title'), can_focus: true, x_expand: true,
            accessible_name: _('Title'),
        });
        this._addButton = new St.Button({
            // TRANSLATORS: the button that adds the task typed in "Add task…".
            label: _('Add'), style_class: 'button petprogress-button', can_focus: true,
            y_align: Clutter.ActorAlign.CENTER,
        });
        this._message = ellipsizedLabel('petprogress-add-message');
        this._message.clutter_text.ellipsize = Pango.EllipsizeMode.NONE;
        this._message.clutter_text.line_wrap = true;
        for (const child of [this._timeEntry, this._titleEntry, this._addButton])
            row.add_child(child);
        column.add_child(row);
        column.add_child(this._message);
        form.add_child(column);
        this.menu.addMenuItem(form);

        for (const entry of [this._timeEntry, this._titleEntry]) {
            entry.clutter_text.connect('text-changed', () => this._check());
            entry.clutter_text.connect('activate', () => this._submit());
        }
        this._addButton.connect('clicked', () => this._submit());
        this.menu.connect('open-state-changed', (_menu, open) => {
            if (open)
                this._timeEntry.grab_key_focus();
        });
        this._check();
    }

    /** What the fields hold: the parsed time and the trimmed title, and whether Add can go. */
    _read() {
        const parsed = parseTime(this._timeEntry.text);
        const title = this._titleEntry.text.trim();
        return {parsed, title, ready: !parsed.error && !parsed.empty && title !== '' && !this._busy};
    }

    /** Checks the fields as they are typed: says what the time means, or what is wrong with it. */
    _check() {
        const {parsed, title, ready} = this._read();
        this._addButton.reactive = ready;
        this._addButton.opacity = ready ? 255 : 128;
        if (parsed.error)
            this._say(parsed.error, true);
        else if (parsed.empty)
            this._say(title ? _('Type a time.') : '', false);
        else
            this._say(this._meaning(parsed, title), false);
    }

    /** What a readable time means, and what is still missing. */
    _meaning(parsed, title) {
        if (parsed.time)
            return fill(title ? _('At %s.') : _('At %s: type a title.'), clockTime(parsed.time));
        return fill(title ? _('%d min from now.') : _('%d min from now: type a title.'), parsed.minutes);
    }

    async _submit() {
        const {parsed, title, ready} = this._read();
        if (!ready)
            return;
        this._busy = true;
        this._check();
        try {
            const time = await this._onAdd(parsed, this._titleEntry.text);
            this._busy = false;
            this._timeEntry.text = '';
            this._titleEntry.text = '';
            this._say(fill(_('Added “%s” at %s.'), title, clockTime(time)), false);
        } catch (error) {
            this._busy = false;
            this._check();
            this._say(error.message, true);
        }
    }

    _say(text, isError) {
        this._message.text = text;
        this._message.visible = text !== '';
        if (isError)
            this._message.add_style_class_name('petprogress-error');
        else
            this._message.remove_style_class_name('petprogress-error');
    }
});

/** The top-bar button: the pet and `X/Y`, and the menu. */
const Indicator = GObject.registerClass(
class Indicator extends PanelMenu.Button {
    _init(actions) {
        super._init(0.5, 'Pet Progress');
        this._actions = actions;
        this._iconTheme = new St.IconTheme();
        this._state = null;

        const box = new St.BoxLayout({style_class: 'panel-status-menu-box petprogress-box'});
        this._box = box;
        this._icon = new St.Icon({style_class: 'system-status-icon petprogress-icon'});
        this._glyph = new St.Label({style_class: 'petprogress-glyph', y_align: Clutter.ActorAlign.CENTER});
        this._count = new St.Label({style_class: 'petprogress-count', y_align: Clutter.ActorAlign.CENTER});
        for (const child of [this._icon, this._glyph, this._count])
            box.add_child(child);
        this.add_child(box);
        this._buildMenu();

        // The user may install the pet icons while the Shell runs: pick the icon again then.
        this._themeChangedId = St.TextureCache.get_default().connect('icon-theme-changed', () => {
            this._iconTheme = new St.IconTheme();
            if (this._state)
                this.update(this._state);
        });
        this.connect('destroy', () => St.TextureCache.get_default().disconnect(this._themeChangedId));
    }

    _buildMenu() {
        this._noticeItem = new NoticeItem(() => this._actions.acknowledge());
        this._clockItem = new NoticeItem(() => this._actions.acknowledge());
        this._stageItem = new InfoItem('petprogress-stage');
        this._restItem = new InfoItem('petprogress-rest');
        this._emptyItem = new InfoItem('petprogress-empty');
        this._taskItems = Array.from({length: MENU_TASKS},
            () => new TaskItem(id => this._actions.done(id), id => this._actions.snooze(id)));
        this._undoItem = new PopupMenu.PopupMenuItem('');
        this._undoItem.label.add_style_class_name('petprogress-undo');
        this._undoItem.label.clutter_text.ellipsize = Pango.EllipsizeMode.END;
        this._undoItem.connect('activate', () => this._actions.undo(this._undoId));
        this._addItem = new AddTaskItem((parsed, title) => this._actions.addTask(parsed, title));
        this._startItem = new PopupMenu.PopupMenuItem(_('Start Pet Progress'));
        this._startItem.connect('activate', () => this._actions.start());
        const todayItem = new PopupMenu.PopupMenuItem(_('Open Today'));
        todayItem.connect('activate', () => this._actions.openToday());
        this._errorItem = new InfoItem('petprogress-error');
        this._errorItem.setText('');
        this._errorSeen = false;
        this._tasksSeparator = new PopupMenu.PopupSeparatorMenuItem();

        for (const item of [this._noticeItem, this._clockItem, this._stageItem, this._restItem, this._tasksSeparator,
            ...this._taskItems, this._emptyItem, new PopupMenu.PopupSeparatorMenuItem(),
            this._addItem, this._undoItem, this._startItem, todayItem, this._errorItem])
            this.menu.addMenuItem(item);
        // An error sentence stays until the menu has been open to show it and closes again (an
        // item's action runs as the menu closes), or until the next request. No signal announces a
        // recovery or its acknowledgement by another client: GetStatus is read as the menu opens.
        this.menu.connect('open-state-changed', (_menu, open) => {
            if (open) {
                this._errorSeen = this._errorItem.visible;
                this._actions.menuOpened();
            } else if (this._errorSeen) {
                this.showError('');
            }
        });
    }

    /** Redraws everything from a client state. */
    update(state) {
        const view = present(state, name => this._iconTheme.has_icon(name), clockTime);
        this._state = state;
        this._icon.visible = view.iconName !== null;
        if (view.iconName)
            this._icon.icon_name = view.iconName;
        this._glyph.visible = view.iconName === null;
        this._glyph.text = view.glyph;
        this._count.text = view.label;
        this.accessible_name = view.accessibleName;
        this._setClass('petprogress-due', view.due);
        this._setClass('petprogress-overdue', view.overdue);
        this._setClass('petprogress-rest-day', view.restDay);
        this._setClass('petprogress-off', !view.running);
        this._box.opacity = view.running ? 255 : 128; // dimmed, beside the word 'off'

        this._noticeItem.setNotice(view.notice);
        this._clockItem.setNotice(view.clockLine);
        this._stageItem.setText(view.stageLine);
        this._tasksSeparator.visible = view.running;
        this._restItem.setText(view.restLine);
        this._emptyItem.setText(view.emptyLine);
        this._taskItems.forEach((item, i) => item.setTask(view.tasks[i] ?? null));
        this._undoId = view.undo?.id ?? '';
        this._undoItem.visible = view.undo !== null;
        this._undoItem.label.text = view.undo?.label ?? '';
        this._startItem.visible = !view.running;
    }

    /** Shows a failed request's sentence in the menu. */
    showError(message) {
        this._errorItem.setText(message);
        this._errorSeen = false;
    }

    _setClass(name, on) {
        if (on)
            this.add_style_class_name(name);
        else
            this.remove_style_class_name(name);
    }
});

/** Enables and disables the indicator; owns the client and the indicator between the two. */
export default class PetProgressExtension extends Extension {
    enable() {
        this._indicator = new Indicator({
            done: id => this._request(client => client.done(id)),
            snooze: id => this._request(client => client.snooze(id)),
            undo: id => this._request(client => client.undo(id)),
            start: () => this._request(client => client.startDaemon()),
            acknowledge: () => this._request(client => client.acknowledgeProblems()),
            menuOpened: () => this._client?.refreshStatus(),
            openToday: () => this._openToday(),
            addTask: (parsed, title) => this._addTask(parsed, title),
        });
        this._client = new PetClient({onChange: state => this._indicator?.update(state)});
        this._indicator.update(this._client.state);
        Main.panel.addToStatusArea(this.uuid, this._indicator);
        this._client.start().catch(error => this._indicator?.showError(error.message));
    }

    disable() {
        this._client?.destroy();
        this._client = null;
        this._indicator?.destroy();
        this._indicator = null;
    }

    /** Runs a client request for the user; its failure is shown in the menu. The state itself
     * follows from PropertiesChanged, not from the reply. */
    _request(call) {
        if (!this._client)
            return;
        this._indicator.showError('');
        call(this._client).catch(error => {
            if (!isCancelled(error))
                this._indicator?.showError(error.message);
        });
    }

    /** Adds a task from the menu's form; resolves to its `HH:MM`. A time relative to now is
     * read on the daemon's clock (petprogress(7) §7). */
    async _addTask(parsed, title) {
        if (!this._client)
            throw new Error(_('Pet Progress is not enabled.'));
        let resolved = {time: parsed.time};
        if (parsed.time === undefined) {
            const {now, resetTime} = await this._client.clock();
            resolved = resolve(parsed, GLib.DateTime.new_from_unix_local(now), resetTime);
            if (resolved.error)
                throw new Error(resolved.error);
        }
        await this._client.addTask(title, resolved.time);
        return resolved.time;
    }

    _openToday() {
        try {
            Gio.AppInfo.launch_default_for_uri(TODAY_URI, global.create_app_launch_context(0, -1));
        } catch (error) {
            this._indicator?.showError(fill(_('Could not open %s: %s'), TODAY_URI, error.message));
        }
    }
}
