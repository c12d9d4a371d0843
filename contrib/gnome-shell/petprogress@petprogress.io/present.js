// What the top bar and the menu say, as plain values computed from the client's state. No Shell
// and no GI imports: extension.js only copies these into widgets, and tests check them under gjs.

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

/** What the recovery line's action says; it calls AcknowledgeProblems. */
export const HIDE_LABEL = 'Hide';

/**
 * The view of a client state (`{running, entry, lastDone, recovery}`, see petclient.js).
 * `hasIcon(name)` says whether the icon theme has an icon. Every field is plain data:
 * - `iconName` (null: draw `glyph` as text instead), `glyph`, `label` (the `X/Y` beside it);
 * - `running`, `due`, `overdue`, `restDay`: the states the top bar marks (`due`: the next task's
 *   time has come and it is still on time; `overdue`: it no longer can be);
 * - `accessibleName`: what a screen reader says for the indicator;
 * - `stageLine`, `restLine`, `emptyLine`: menu lines ('' hides a line);
 * - `tasks`: up to three `{id, text, accessibleText, due, overdue}`; `undo`: `{id, label}` or null;
 * - `notice`: the recovery line (see `recoveryNotice`) from the state's `recovery`, or null.
 */
export function present(state, hasIcon = () => false) {
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
        accessibleName: [entry.accessible_text, restDay ? 'Rest day.' : ''].filter(Boolean).join(' '),
        stageLine: stageLine(entry),
        restLine: restDay ? 'Rest day: unfinished tasks cost nothing today.' : '',
        emptyLine: emptyLine(entry),
        tasks: (entry.upcoming ?? []).slice(0, MENU_TASKS).map(taskLine),
        undo: state.lastDone ? {id: state.lastDone.id, label: `Undo “${state.lastDone.title}”`} : null,
        notice: recoveryNotice(state.recovery),
    };
}

/** The view while the daemon is not running, or running but its entry not yet read. */
function absent({running, recovery}) {
    return {
        running,
        iconName: null,
        glyph: PAW,
        label: running ? '…' : 'off',
        due: false,
        overdue: false,
        restDay: false,
        accessibleName: running ? 'Pet Progress is starting.' : 'Pet Progress is not running.',
        stageLine: running ? 'Pet Progress is starting…' : 'Pet Progress is not running.',
        restLine: '',
        emptyLine: '',
        tasks: [],
        undo: null,
        notice: running ? recoveryNotice(recovery) : null,
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
    const line = lost ? `${sentence} Lost: ${lost}.` : sentence;
    return {
        text: `⚠ ${line}`,
        accessibleText: `Warning: ${line}`,
        hideLabel: HIDE_LABEL,
        hideAccessibleName: 'Hide the notice about the recovered state file',
    };
}

/** The recovery keys of a GetStatus reply, or null when the reply has none of them. */
export function recoveryOf(status) {
    const kept = Object.fromEntries(RECOVERY_KEYS.filter(key => key in (status ?? {}))
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
        parts.push('rest');
    return parts.join(' · ');
}

/** e.g. `Frog · stage 3 of 20 · 12 of 30 XP`, or `Floating God · final form · 7 XP`. */
export function stageLine(entry) {
    const position = `stage ${entry.stage_index + 1} of ${entry.stage_count}`;
    const xp = entry.is_final ? `final form · ${entry.stage_xp} XP`
        : `${entry.stage_xp} of ${entry.threshold} XP`;
    return `${entry.stage_name} · ${position} · ${xp}`;
}

function emptyLine(entry) {
    if (!entry.tasks_total)
        return 'No tasks planned today.';
    if (!entry.next_task_id)
        return `All ${entry.tasks_total} ${entry.tasks_total === 1 ? 'task' : 'tasks'} done.`;
    return '';
}

/** A menu row: `09:30  Write report`, with the snooze, due and overdue marks spelled out. */
export function taskLine(task) {
    const due = task.due === true && task.overdue !== true;
    const marks = [
        task.snoozed_until ? `snoozed from ${task.time}` : '',
        task.overdue ? 'overdue' : due ? 'due' : '',
    ].filter(Boolean);
    const suffix = marks.length ? ` (${marks.join(', ')})` : '';
    return {
        id: task.id,
        text: `${task.effective_time}  ${task.title}${suffix}`,
        accessibleText: `${task.effective_time} ${task.title}${suffix}`,
        due,
        overdue: task.overdue === true,
    };
}
