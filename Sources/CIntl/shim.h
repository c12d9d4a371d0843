// CIntl: glibc's gettext and locale calls, which Swift's Glibc module leaves out (libintl.h) or
// hides behind _GNU_SOURCE (_NL_TIME_FIRST_WEEKDAY). glibc carries gettext itself: no new library.
// Only petctl imports this module.
#ifndef CINTL_SHIM_H
#define CINTL_SHIM_H

#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <libintl.h>
#include <langinfo.h>
#include <locale.h>
#include <time.h>

/// The LC_TIME locale's first day of the week, 0 = Sunday … 6 = Saturday: glibc's `first_weekday`
/// counts from the weekday of `week-1stday` (1 = that day).
static inline int cintl_first_weekday(void) {
    int first = (unsigned char)*nl_langinfo(_NL_TIME_FIRST_WEEKDAY);
    union { const char *p; unsigned int word; } base;
    base.p = nl_langinfo(_NL_TIME_WEEK_1STDAY);
    // week-1stday is a date, YYYYMMDD; 19971130 was a Sunday, 19971201 a Monday (the two in use).
    int baseWeekday = base.word == 19971201 ? 1 : 0;
    return (baseWeekday + first - 1 + 7) % 7;
}

/// The LC_TIME locale's time format (`%H:%M:%S`, `%r`, `%I:%M:%S %p`, …).
static inline const char *cintl_time_format(void) { return nl_langinfo(T_FMT); }

/// The LC_TIME locale's name, as setlocale set it ("C", "de_DE.UTF-8", …).
static inline const char *cintl_time_locale(void) { return setlocale(LC_TIME, NULL); }

/// The decimal separator of the environment's LC_NUMERIC locale (LC_ALL, LC_NUMERIC, LANG), copied
/// into `out` (NUL-terminated, at most `size` bytes), without changing the process's own LC_NUMERIC
/// (petctl keeps C's, so no number it parses or sends depends on the locale): "," under de_DE and
/// fr_FR, "." under C and en_US, and "." where the locale is not installed.
static inline void cintl_decimal_point(char *out, int size) {
    if (size < 2) return;
    out[0] = '.';
    out[1] = 0;
    locale_t numeric = newlocale(LC_NUMERIC_MASK, "", (locale_t)0);
    if (numeric == (locale_t)0) return;
    const char *point = nl_langinfo_l(RADIXCHAR, numeric);
    if (point != 0 && point[0] != 0) {
        int i = 0;
        for (; point[i] != 0 && i < size - 1; i++) out[i] = point[i];
        out[i] = 0;
    }
    freelocale(numeric);
}

#endif
