/*
 * The widget's time input (contents/code/timeinput.js) under qmltestrunner: every form
 * petprogress(7) §7 names, what it refuses, and petctl's own table of typed times
 * (Tests/PetCtlTests/Fixtures/time-input.tsv, copied beside this file by check-plasma-widget.sh;
 * QML_XHR_ALLOW_FILE_READ=1 lets the test read it).
 */
import QtQuick
import QtTest

import "../io.petprogress.plasmoid/contents/code/timeinput.js" as TimeInput

TestCase {
    name: "TimeInput"

    /** Unix seconds and the offset (seconds east) of an ISO 8601 instant with its offset. */
    function instant(iso) {
        const m = /^(\d{4})-(\d\d)-(\d\d)T(\d\d):(\d\d):(\d\d)([+-])(\d\d):(\d\d)$/.exec(iso);
        verify(m !== null, iso);
        const offset = (m[7] === "-" ? -1 : 1) * (Number(m[8]) * 3600 + Number(m[9]) * 60);
        const utc = Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]), Number(m[4]), Number(m[5]), Number(m[6])) / 1000;
        return {seconds: utc - offset, offset: offset};
    }

    function test_wallForms() {
        const table = [["14:30", "14:30"], ["9:05", "09:05"], ["0930", "09:30"], ["0000", "00:00"], ["7pm", "19:00"],
                       ["7:05pm", "19:05"], ["12am", "00:00"], ["12pm", "12:00"], ["19h", "19:00"], ["19h30", "19:30"],
                       [" 7:05Pm ", "19:05"], ["23H", "23:00"]];
        for (const [typed, time] of table)
            compare(TimeInput.parse(typed).time, time, typed);
    }

    function test_relative() {
        for (const [typed, minutes] of [["+20m", 20], ["+1h30m", 90], ["+2h", 120], ["+24h", 1440], [" +1H5M ", 65]])
            compare(TimeInput.parse(typed).minutes, minutes, typed);
        compare(TimeInput.parse("+0m").error, "relative");
        compare(TimeInput.parse("+25h").error, "relative");
    }

    function test_refusals() {
        verify(TimeInput.parse("").empty);
        verify(TimeInput.parse("   ").empty);
        for (const typed of ["7", "930", "14:3", "14.30", "noon", "+", "+20", "20m", "7 pm", "19h5", "١٤:٣٠", "x".repeat(5000)])
            compare(TimeInput.parse(typed).error, "form", typed);
        for (const typed of ["24:00", "9:60", "2400", "24h", "0pm", "13pm", "14:30pm"])
            compare(TimeInput.parse(typed).error, "range", typed);
    }

    function test_roundsUpAndStopsAtTheDayEnd() {
        const at = instant("2026-03-02T14:00:01+01:00");
        const wall = s => TimeInput.wallTimeAtOffset(s, at.offset);
        compare(TimeInput.resolve({minutes: 20}, at.seconds, 0, wall).time, "14:21");
        const end = instant("2026-03-02T14:30:00+01:00").seconds;
        compare(TimeInput.resolve({minutes: 29}, at.seconds, end, wall).error, "pastEnd");
        compare(TimeInput.resolve({minutes: 28}, at.seconds, end, wall).time, "14:29");
        compare(TimeInput.resolve(TimeInput.parse("7pm"), at.seconds, end, wall).time, "19:00");
    }

    function test_petctlTable() {
        const request = new XMLHttpRequest();
        request.open("GET", Qt.resolvedUrl("time-input.tsv"), false);
        request.send();
        const rows = request.responseText.split("\n").filter(line => line !== "" && !line.startsWith("#"))
            .slice(1).map(line => line.split("\t"));
        verify(rows.length > 40, rows.length + " rows");
        for (const [input, now, dayEnd, expected] of rows) {
            const at = instant(now);
            const got = TimeInput.resolve(TimeInput.parse(input), at.seconds, instant(dayEnd).seconds,
                                          s => TimeInput.wallTimeAtOffset(s, at.offset));
            if (expected === "refused")
                verify(got.error !== undefined, input + " at " + now + ": " + JSON.stringify(got));
            else
                compare(got.time, expected, input + " at " + now);
        }
    }
}
