/*
 * Times on the locale's clock (contents/code/clock.js), as petctl shows them: 12-hour where the
 * locale's short time format has AM/PM (en_US), the daemon's HH:MM elsewhere (C, de_DE, fr_FR).
 */
import QtQuick
import QtTest

import "../io.petprogress.plasmoid/contents/code/clock.js" as Clock

TestCase {
    name: "Clock"

    function test_formats() {
        verify(Clock.twelveHour("h:mm AP"), "Qt's en_US");
        verify(Clock.twelveHour("h:mm\u202fap"), "a narrow space before it");
        verify(!Clock.twelveHour("HH:mm"), "de_DE, fr_FR, C");
        verify(!Clock.twelveHour("HH 'h' mm"), "a quoted word is not a field");
        verify(!Clock.twelveHour(""), "none");
    }

    function test_twelveHourLocale() {
        const us = Qt.locale("en_US");
        verify(Clock.twelveHour(us.timeFormat(Locale.ShortFormat)), us.timeFormat(Locale.ShortFormat));
        const cases = {"00:05": "12:05", "09:30": "9:30", "12:00": "12:00", "14:30": "2:30", "23:59": "11:59"};
        for (const hhmm in cases) {
            const shown = Clock.clockTime(hhmm, us);
            // "2:30 PM" (Qt may put a narrow no-break space before PM, as CLDR does).
            compare(shown.replace(/[\u202f\u00a0]/g, " "), cases[hhmm] + (hhmm < "12:00" ? " AM" : " PM"), hhmm);
        }
    }

    function test_twentyFourHourLocales() {
        for (const name of ["C", "de_DE", "fr_FR"]) {
            const locale = Qt.locale(name);
            for (const hhmm of ["00:05", "09:30", "14:30", "23:59"])
                compare(Clock.clockTime(hhmm, locale), hhmm, name + " " + hhmm);
        }
    }

    function test_notATime() {
        const us = Qt.locale("en_US");
        for (const other of ["", "24:00", "9:30", "soon"])
            compare(Clock.clockTime(other, us), other, other);
        compare(Clock.clockTime("14:30", null), "14:30", "no locale");
    }
}
