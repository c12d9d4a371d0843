// A daemon `HH:MM` on the locale's clock, as petctl shows it (petprogress(7) §7: one clock format
// wherever a person reads a time): `2:30 PM` where the locale's short time format has an AM/PM
// field (Qt's `AP`/`ap`, from LC_TIME as Plasma's regional settings set it; en_US), else as the
// daemon sends it (`14:30`; C, de_DE, fr_FR). Pure: the caller passes the locale
// (`Qt.locale()`). Checked by contrib/plasma/tests/tst_clock.qml.
.pragma library

/** Whether a Qt time format writes AM or PM (a field `a`/`A` outside its quoted text). */
function twelveHour(format) {
    return /a/i.test(String(format || "").replace(/'[^']*'/g, ""));
}

/** `hhmm` on `locale`'s clock; anything but an `HH:MM` unchanged. */
function clockTime(hhmm, locale) {
    const match = /^([01][0-9]|2[0-3]):([0-5][0-9])$/.exec(hhmm || "");
    if (!match || !locale)
        return hhmm;
    const format = locale.timeFormat(1 /* Locale.ShortFormat */);
    if (!twelveHour(format))
        return hhmm;
    return new Date(2026, 2, 2, Number(match[1]), Number(match[2]), 0).toLocaleTimeString(locale, format);
}
