/*
 * When the widget re-reads by itself (contents/code/moments.js): the shown tasks' flips by petctl's
 * rule, checked against petctl's own table (Tests/PetCtlTests/Fixtures/flip-rule.tsv, copied beside
 * this file by check-plasma-widget.sh), and the entry's next tick, whichever comes first.
 */
import QtQuick
import QtTest

import "../io.petprogress.plasmoid/contents/code/moments.js" as Moments

TestCase {
    name: "Moments"

    /** `due_at/overdue_at/flags`, comma-separated, as task records; `-` for none. */
    function tasks(text) {
        if (text === "-")
            return [];
        return text.split(",").map(function (task) {
            const parts = task.split("/");
            return {due_at: Number(parts[0]), overdue_at: Number(parts[1]), due: parts[2].indexOf("d") >= 0,
                    overdue: parts[2].indexOf("o") >= 0};
        });
    }

    function test_petctlTable() {
        const request = new XMLHttpRequest();
        request.open("GET", Qt.resolvedUrl("flip-rule.tsv"), false);
        request.send();
        const rows = request.responseText.split("\n").filter(line => line !== "" && !line.startsWith("#"))
            .slice(1).map(line => line.split("\t"));
        verify(rows.length >= 20, rows.length + " rows");
        for (const [upcoming, daemonNow, realNow, timeScale, wait, why] of rows) {
            const got = Moments.flipWait(tasks(upcoming), Number(daemonNow), Number(realNow), Number(timeScale));
            if (wait === "none")
                compare(got, null, why);
            else
                verify(got !== null && Math.abs(got - Number(wait)) < 1e-9, why + ": got " + got + ", expected " + wait);
            // The same tasks in the popup's list instead of the entry's: the same wait, in whole ms.
            const entry = {next_date: 0, upcoming: []};
            const ms = Moments.nextWaitMs(entry, tasks(upcoming), Number(daemonNow), Number(realNow), Number(timeScale));
            compare(ms, wait === "none" ? null : Math.ceil(Number(wait) * 1000), why + " (popup)");
        }
    }

    function test_theTickOrTheFirstFlip() {
        const entry = {next_date: 4600, upcoming: [{due_at: 1600, overdue_at: 2500, due: false, overdue: false}]};
        compare(Moments.nextWaitMs(entry, [], 1000, 1000, 1), 601000, "the task turns due first");
        const due = {next_date: 4600, upcoming: [{due_at: 1600, overdue_at: 2500, due: true, overdue: true}]};
        compare(Moments.nextWaitMs(due, [], 1000, 1000, 1), 3601000, "both flags set: the next tick");
        compare(Moments.nextWaitMs(due, [{due_at: 1200, overdue_at: 1800, due: false, overdue: false}], 1000, 1000, 60),
                Math.ceil(201000 / 60), "a popup task's flip at time_scale 60");
        compare(Moments.nextWaitMs({upcoming: []}, [], 1000, 1000, 1), null, "nothing named: no timer");
        compare(Moments.nextWaitMs(null, [], 1000, 1000, 1), null, "no entry, no timer");
        compare(Moments.nextWaitMs({next_date: 1e12, upcoming: []}, [], 1000, 1000, 1), 86400000, "at most a day");
    }
}
