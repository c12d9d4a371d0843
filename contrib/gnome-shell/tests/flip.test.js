// The menu's flip rule (flip.js) against petctl's table, Tests/PetCtlTests/Fixtures/flip-rule.tsv:
// watch, the interactive screen, the tray and the extension wake at the same moment.

import GLib from 'gi://GLib';

import {flipWait} from '../petprogress@petprogress.io/flip.js';
import {check, run, test} from './harness.js';

/** `due_at/overdue_at/flags`, comma-separated, as upcoming records; `-` for none. */
function tasks(text) {
    if (text === '-')
        return [];
    return text.split(',').map(task => {
        const [dueAt, overdueAt, flags] = task.split('/');
        return {due_at: Number(dueAt), overdue_at: Number(overdueAt), due: flags.includes('d'),
            overdue: flags.includes('o')};
    });
}

test('petctl\'s flip table reads the same here', () => {
    const path = GLib.build_filenamev([GLib.path_get_dirname(import.meta.url.replace('file://', '')),
        '..', '..', '..', 'Tests', 'PetCtlTests', 'Fixtures', 'flip-rule.tsv']);
    const [, bytes] = GLib.file_get_contents(path);
    const rows = new TextDecoder().decode(bytes).split('\n')
        .filter(line => line !== '' && !line.startsWith('#')).slice(1).map(line => line.split('\t'));
    check(rows.length >= 20, `${rows.length} rows`);
    for (const [upcoming, daemonNow, realNow, timeScale, wait, why] of rows) {
        const got = flipWait(tasks(upcoming), Number(daemonNow), Number(realNow), Number(timeScale));
        if (wait === 'none')
            check(got === null, `${why}: got ${got}`);
        else
            check(got !== null && Math.abs(got - Number(wait)) < 1e-9, `${why}: got ${got}, expected ${wait}`);
    }
});

await run();
