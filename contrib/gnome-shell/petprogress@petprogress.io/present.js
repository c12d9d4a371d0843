// What the top bar and the menu say, as plain values computed from the client's state. No Shell
// and no GI imports: extension.js only copies these into widgets, and tests check them under gjs.
// Every sentence is translated here (l10n.js), in the user's language.

import {_, fill, ngettext, pgettext} from './l10n.js';

/** The deep link that opens the Today screen (petprogress(7) §8). */
export const TODAY_URI = 'petprogress://today';

/** Shown in text when no pet can be drawn: the daemon is not running, or nothing is known yet. */
export const PAW = '🐾';

/** How many tasks the menu lists (the entry's `upcoming` holds at most three). */
export const MENU_TASKS = 3;

/** The keys of a GetStatus reply that describe the last recovery from a damaged state file
 * (petprogress(7) §6.1); the client keeps these and nothing else of the reply. */
export const RECOVERY_KEYS = ['recovery', 'recovery_source', 'recovery_day', 'recovery_lost', 'recovery_at',
    'problems_acknowledged'];

/** The keys of a GetStatus reply about the clock that went back (petprogress(7) §3.1, §6.1), kept
 * with the recovery keys. */
export const CLOCK_KEYS = ['clock_behind', 'clock_day', 'clock_behind_snapshot', 'open_day'];

/**
 * The view of a client state (`{running, entry, lastDone, recovery}`, see petclient.js).
 * `hasIcon(name)` says whether the icon theme has an icon. Every field is plain data:
 * - `iconName` (null: draw `glyph` as text instead), `glyph`, `label` (the `X/Y` beside it);
 * - `running`, `due`, `overdue`, `restDay`: the states the top bar marks (`due`: the next task's
 *   time has come and it is still on time; `overdue`: it no longer can be);
 * - `accessibleName`: what a screen reader says for the indicator (`accessibleSentence`);
 * - `stageLine`, `restLine`, `emptyLine`: menu lines ('' hides a line);
 * - `tasks`: up to three `{id, text, accessibleText, due, overdue}`; `undo`: `{id, label}` or null;
 * - `notice`: the recovery line (see `recoveryNotice`) from the state's `recovery`, or null;
 * - `clockLine`: the clock line (see `clockNotice`), from the same GetStatus keys, or null.
 * `clock(hhmm)` writes a time as the locale does (wallclock.js's `clockTime`; tests choose one).
 */
export function present(state, hasIcon = () => false, clock = hhmm => hhmm) {
    const entry = state.running ? state.entry : null;
    if (!entry)
        return absent(state);
    const overdue = entry.next_task_overdue === true;
    const due = !overdue && entry.next_task_due === true; // absent from older daemons: not due
    const restDay = entry.rest_day === true; // added to the entry by a later issue: absent is false
    return {
        running: true,
        iconName: chooseIcon(entry.icon_name, hasIcon),
        glyph: entry.glyph || PAW,
        label: countLabel(entry, overdue, restDay),
        due,
        overdue,
        restDay,
        accessibleName: accessibleSentence(entry, clock, due, overdue, restDay),
        stageLine: stageLine(entry),
        restLine: restDay ? _('Rest day: unfinished tasks cost nothing today.') : '',
        emptyLine: emptyLine(entry),
        tasks: (entry.upcoming ?? []).slice(0, MENU_TASKS).map(task => taskLine(task, clock)),
        undo: state.lastDone ? {id: state.lastDone.id, label: fill(_('Undo “%s”'), state.lastDone.title)} : null,
        notice: recoveryNotice(state.recovery),
        clockLine: clockNotice(state.recovery),
    };
}

/**
 * What a screen reader says for the indicator: the entry's sentence (petprogress(7) §6.2), composed
 * here from the entry's other keys in the user's language and on the locale's clock (`clock`), as
 * petctl composes its own — the daemon's `accessible_text` is English with 24-hour times. In
 * English on a 24-hour clock it says what the daemon's says: `Frog, stage 3 of 20, 12 of 30 XP.
 * 2 of 5 tasks done. Next: 14:30 Write report.`, with `Rest day.` before the tasks on a rest day.
 */
export function accessibleSentence(entry, clock = hhmm => hhmm, due = entry.next_task_due === true,
    overdue = entry.next_task_overdue === true, restDay = entry.rest_day === true) {
    const name = formName(entry.stage_name);
    const position = [entry.stage_index + 1, entry.stage_count];
    const pet = entry.is_final
        // TRANSLATORS: what a screen reader says of the pet at its final form: its name, stage and XP.
        ? fill(_('%s, stage %d of %d, final form, %d XP.'), name, ...position, entry.stage_xp)
        // TRANSLATORS: what a screen reader says of the pet: its name, stage, XP and the XP to evolve.
        : fill(_('%s, stage %d of %d, %d of %d XP.'), name, ...position, entry.stage_xp, entry.threshold);
    const total = entry.tasks_total ?? 0;
    const parts = [pet];
    if (restDay)
        parts.push(_('Rest day.'));
    if (!total) {
        parts.push(_('No tasks planned.'));
        return parts.join(' ');
    }
    parts.push(fill(ngettext('%d of %d task done.', '%d of %d tasks done.', total), entry.tasks_done ?? 0, total));
    if (!entry.next_task_id) {
        parts.push(_('Nothing pending.'));
    } else {
        const time = clock(entry.next_task_time);
        const title = entry.next_task_title ?? '';
        parts.push(overdue ? fill(_('Next: %s %s, overdue.'), time, title)
            : due ? fill(_('Next: %s %s, due.'), time, title)
                : fill(_('Next: %s %s.'), time, title));
    }
    return parts.join(' ');
}

/** The view while the daemon is not running, or running but its entry not yet read. */
function absent({running, recovery}) {
    return {
        running,
        iconName: null,
        glyph: PAW,
        // TRANSLATORS: the top bar's word beside the dimmed paw while the daemon is not running.
        label: running ? '…' : _('off'),
        due: false,
        overdue: false,
        restDay: false,
        accessibleName: running ? _('Pet Progress is starting.') : _('Pet Progress is not running.'),
        stageLine: running ? _('Pet Progress is starting…') : _('Pet Progress is not running.'),
        restLine: '',
        emptyLine: '',
        tasks: [],
        undo: null,
        notice: running ? recoveryNotice(recovery) : null,
        clockLine: running ? clockNotice(recovery) : null,
    };
}

/**
 * The recovery line from a GetStatus reply (unpacked to a plain object; the keys of
 * `RECOVERY_KEYS` are all it reads), or null when there is nothing to show: no recovery ever
 * (`recovery` is ""), or `problems_acknowledged` is true. A reply without the keys (a daemon
 * before recoveries were reported) shows nothing. `petctl today`'s wording, with the menu's
 * action in place of its hint: `{text, accessibleText, hideLabel, hideAccessibleName}`.
 */
export function recoveryNotice(status) {
    const sentence = typeof status?.recovery === 'string' ? status.recovery.trim() : '';
    if (!sentence || status.problems_acknowledged === true)
        return null;
    const lost = typeof status.recovery_lost === 'string' ? status.recovery_lost.trim() : '';
    // The daemon's sentence stays as the bus sends it (English: a contract); what is added is ours.
    const line = lost ? fill(_('%s Lost: %s.'), sentence, lost) : sentence;
    return {
        text: `⚠ ${line}`,
        accessibleText: fill(_('Warning: %s'), line),
        // TRANSLATORS: the recovery notice's button; it hides the notice.
        hideLabel: _('Hide'),
        hideAccessibleName: _('Hide the notice about the recovered state file'),
    };
}

/**
 * The clock line from a GetStatus reply, or null: shown while `clock_behind` is true (the clock
 * reads more than an hour before the open day; the daemon stops saying so once acknowledged). It
 * names the open day and, when there is one, the snapshot to restore, as `petctl today` does; its
 * button acknowledges, keeping the days as closed. `{text, accessibleText, hideLabel,
 * hideAccessibleName}`, as the recovery notice.
 */
export function clockNotice(status) {
    if (status?.clock_behind !== true)
        return null;
    const openDay = typeof status.open_day === 'string' ? status.open_day : '';
    const snapshot = typeof status.clock_behind_snapshot === 'string' ? status.clock_behind_snapshot.trim() : '';
    const line = snapshot
        // TRANSLATORS: the clock was set ahead and came back; %s is the open day (YYYY-MM-DD), the command is not translated.
        ? fill(_('Clock behind the open day %s: petctl restore %s goes back'), openDay, snapshot)
        // TRANSLATORS: the clock was set ahead and came back; %s is the open day (YYYY-MM-DD).
        : fill(_('Clock behind the open day %s: nothing was changed'), openDay);
    return {
        text: `⚠ ${line}`,
        accessibleText: fill(_('Warning: %s'), line),
        // TRANSLATORS: the clock notice's button: the days closed while the clock was ahead stay closed.
        hideLabel: _('Keep'),
        hideAccessibleName: _('Keep the days as closed and hide the notice about the clock'),
    };
}

/** The recovery and clock keys of a GetStatus reply, or null when the reply has none of them. */
export function recoveryOf(status) {
    const kept = Object.fromEntries([...RECOVERY_KEYS, ...CLOCK_KEYS].filter(key => key in (status ?? {}))
        .map(key => [key, status[key]]));
    return Object.keys(kept).length ? kept : null;
}

/** The pet's icon: the symbolic variant when installed (the top bar's convention), else the
 * full-colour one, else null so the glyph is drawn. */
export function chooseIcon(iconName, hasIcon) {
    if (!iconName)
        return null;
    return [`${iconName}-symbolic`, iconName].find(name => hasIcon(name)) ?? null;
}

/** `X/Y`, with `!` while the next task is overdue and `· rest` on a rest day: marks that read
 * without colour. */
function countLabel(entry, overdue, restDay) {
    const parts = [`${entry.tasks_done ?? 0}/${entry.tasks_total ?? 0}`];
    if (overdue)
        parts[0] += ' !';
    if (restDay)
        // TRANSLATORS: the top bar's mark on a rest day, after "2/5 · " (keep it short).
        parts.push(_('rest'));
    return parts.join(' · ');
}

/** e.g. `Frog · stage 3 of 20 · 12 of 30 XP`, or `Floating God · final form · 7 XP`. The form's
 * name is translated when it is one of the default table's (a custom table's stay as written). */
export function stageLine(entry) {
    const position = fill(_('stage %d of %d'), entry.stage_index + 1, entry.stage_count);
    const xp = entry.is_final ? fill(_('final form · %d XP'), entry.stage_xp)
        : fill(_('%d of %d XP'), entry.stage_xp, entry.threshold);
    return `${formName(entry.stage_name)} · ${position} · ${xp}`;
}

/** A pet form's name in the user's language (the daemon sends the default table's English names). */
export function formName(name) {
    return typeof name === 'string' && name !== '' ? pgettext('pet form', name) : name;
}

function emptyLine(entry) {
    if (!entry.tasks_total)
        return _('No tasks planned today.');
    if (!entry.next_task_id)
        return fill(ngettext('All %d task done.', 'All %d tasks done.', entry.tasks_total), entry.tasks_total);
    return '';
}

/** A menu row: `09:30  Write report` (`9:30 AM  Write report` on a 12-hour clock), with the
 * snooze, due and overdue marks spelled out. */
export function taskLine(task, clock = hhmm => hhmm) {
    const due = task.due === true && task.overdue !== true;
    const marks = [
        task.snoozed_until ? fill(_('snoozed from %s'), clock(task.time)) : '',
        task.overdue ? _('overdue') : due ? _('due') : '',
    ].filter(Boolean);
    const suffix = marks.length ? ` (${marks.join(', ')})` : '';
    return {
        id: task.id,
        text: `${clock(task.effective_time)}  ${task.title}${suffix}`,
        accessibleText: `${clock(task.effective_time)} ${task.title}${suffix}`,
        due,
        overdue: task.overdue === true,
    };
}
