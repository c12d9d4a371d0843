/*
 * When the widget re-reads by itself (contents/code/moments.js): the entry's next tick and the
 * shown tasks' due and overdue moments, whichever comes first, on the daemon's clock at its scale.
 */
import QtQuick
import QtTest

import "../io.petprogress.plasmoid/contents/code/moments.js" as Moments

TestCase {
    name: "Moments"

    readonly property var entry: ({
        next_date: 1000 + 3600,
        upcoming: [{due_at: 1000 + 600, overdue_at: 1000 + 1500}, {due_at: 1000 + 1800, overdue_at: 1000 + 2700}]
    })

    function test_firstMomentAfterNow() {
        compare(Moments.nextMoment(entry, 1000), 1600, "the next task turns due");
        compare(Moments.nextMoment(entry, 1600), 2500, "then overdue");
        compare(Moments.nextMoment(entry, 2500), 2800, "then the second task turns due");
        compare(Moments.nextMoment(entry, 3700), 4600, "then the tick");
        compare(Moments.nextMoment(entry, 4600), null, "nothing after the tick is known");
        compare(Moments.nextMoment(null, 0), null, "no entry, no moment");
    }

    function test_neverTheTaskAlreadyPast() {
        const done = {next_date: 5000, upcoming: [{due_at: 0, overdue_at: 0}]};
        compare(Moments.nextMoment(done, 1000), 5000, "0 is never");
    }

    function test_popupTasksCount() {
        compare(Moments.nextMoment({next_date: 5000, upcoming: []}, 1000, [{due_at: 1200, overdue_at: 1300}]), 1200);
    }

    function test_delay() {
        compare(Moments.delayMs(1600, 1000, 1), 601000, "a second late, never early");
        compare(Moments.delayMs(1600, 1000, 60), 10017, "at 60 times real time");
        compare(Moments.delayMs(1000, 1000, 1), 1000, "never below a second");
        compare(Moments.delayMs(1e12, 0, 1), 24 * 3600 * 1000, "never above a day");
    }
}
