// A small test runner for gjs: named async tests run in order, each failure printed with its
// reason; the process exits 1 if any failed.

import GLib from 'gi://GLib';
import System from 'system';

const tests = [];

/** Registers a test. */
export function test(name, body) {
    tests.push({name, body});
}

/** Runs the registered tests in order and exits with their verdict. `stopAfterFailure`: the
 * later tests depend on the earlier ones' effects, so running them would only add noise. */
export async function run({stopAfterFailure = false} = {}) {
    let [passed, failed] = [0, 0];
    for (const {name, body} of tests) {
        const started = GLib.get_monotonic_time();
        try {
            await body();
            passed++;
            print(`ok   ${name} (${Math.round((GLib.get_monotonic_time() - started) / 1000)} ms)`);
        } catch (error) {
            failed++;
            print(`FAIL ${name}\n     ${error.message}\n${(error.stack ?? '').replace(/^/gm, '       ')}`);
            if (stopAfterFailure)
                break;
        }
    }
    const skipped = tests.length - passed - failed;
    print(`${passed} of ${tests.length} passed${skipped ? `, ${skipped} not run after the failure` : ''}`);
    System.exit(failed ? 1 : 0);
}

export class AssertionError extends Error {}

export function check(condition, message) {
    if (!condition)
        throw new AssertionError(message);
}

/** Deep equality through JSON: the values compared here are plain data. */
export function equal(actual, expected, what) {
    const [a, e] = [JSON.stringify(actual), JSON.stringify(expected)];
    if (a !== e)
        throw new AssertionError(`${what}: expected ${e}, got ${a}`);
}

/** A promise that settles after `ms` on the main loop. */
export function sleep(ms) {
    return new Promise(resolve => GLib.timeout_add(GLib.PRIORITY_DEFAULT, ms, () => {
        resolve();
        return GLib.SOURCE_REMOVE;
    }));
}

/** Waits until `predicate()` is true, checking every 20 ms, for at most `timeoutMs`; throws
 * naming `what` otherwise. */
export async function waitFor(what, predicate, timeoutMs = 10000) {
    const deadline = GLib.get_monotonic_time() + timeoutMs * 1000;
    while (!predicate()) {
        if (GLib.get_monotonic_time() > deadline)
            throw new AssertionError(`timed out after ${timeoutMs} ms waiting for ${what}`);
        await sleep(20);
    }
}

/** Resolves once `promise` rejects, with the error; throws if it resolves. */
export async function rejection(promise, what) {
    try {
        await promise;
    } catch (error) {
        return error;
    }
    throw new AssertionError(`${what}: expected an error, got success`);
}
