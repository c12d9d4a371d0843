import CIntl
import Glibc
import PetCore

/// Instants and dates as this process's local wall clock and its locale show them (glibc: `TZ`,
/// else /etc/localtime; `LC_TIME` for the names of days and months, the first day of the week and
/// 12- or 24-hour clocks) — the zone and the language of the person at this terminal. The date
/// formats are strftime(3) formats from the catalogue (`trFormat`), since word order differs by
/// language; the C locale keeps petctl's own English forms (petprogress(7) §7). Times of day
/// follow the locale's clock (`ClockStyle`), which a command works out once and passes down.
enum LocalClock {
    /// `HH:MM` at `instant`, whatever the locale: what petctl sends on the bus.
    static func hhmm(_ instant: Instant) -> String {
        var t = time_t(instant)
        var parts = tm()
        guard localtime_r(&t, &parts) != nil else { return "--:--" }
        return pad(Int(parts.tm_hour)) + ":" + pad(Int(parts.tm_min))
    }

    static func pad(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }

    /// `2026-03-02T14:31:00+01:00`: the instant in local time with its offset (ISO 8601), for
    /// exports a spreadsheet or a script reads.
    static func iso(_ instant: Instant) -> String {
        var t = time_t(instant)
        var p = tm()
        guard localtime_r(&t, &p) != nil else { return "" }
        let offset = Int(p.tm_gmtoff)
        let sign = offset < 0 ? "-" : "+"
        let date = "\(Int(p.tm_year) + 1900)-\(pad(Int(p.tm_mon) + 1))-\(pad(Int(p.tm_mday)))"
        let clock = "\(pad(Int(p.tm_hour))):\(pad(Int(p.tm_min))):\(pad(Int(p.tm_sec)))"
        return "\(date)T\(clock)\(sign)\(pad(abs(offset) / 3600)):\(pad(abs(offset) % 3600 / 60))"
    }

    /// `Mon 2 Mar` for a day key: the log's day label.
    static func shortDayName(_ key: String) -> String {
        guard let date = CivilDate(parsing: key) else { return key }
        return format(trFormat("%a %-d %b"), parts(date))
    }

    /// `2 Mar`.
    static func shortDate(_ date: CivilDate) -> String { format(trFormat("%-d %b"), parts(date)) }

    /// `Monday 2 March` for a day key `YYYY-MM-DD` (its own calendar date, no zone involved).
    static func dayName(_ key: String) -> String {
        guard let date = CivilDate(parsing: key) else { return key }
        return format(trFormat("%A %-d %B"), parts(date))
    }

    /// `Monday`.
    static func weekdayName(_ date: CivilDate) -> String { format("%A", parts(date)) }

    /// The abbreviated name of `day` in three columns, for the heatmap's heads: `Mon`, `Mo `,
    /// `lun` (a closing period dropped, a longer name cut).
    static func weekdayHead(_ day: Weekday) -> String {
        // 2024-01-01 was a Monday.
        let name = format("%a", parts(CivilDate(daysSinceEpoch: 19723 + day.rawValue - 1)))
        let bare = name.hasSuffix(".") ? String(name.dropLast()) : name
        var cut = ""
        for c in bare where TextWidth.columns(cut) + TextWidth.columns(c) <= 3 { cut.append(c) }
        return cut + String(repeating: " ", count: 3 - TextWidth.columns(cut))
    }

    /// Whether LC_TIME is C or POSIX (petctl's own English forms).
    static var isCLocale: Bool {
        let name = String(cString: cintl_time_locale())
        return name == "C" || name == "POSIX" || name.hasPrefix("C.")
    }

    /// The locale's abbreviated name of `day` (`Mon`, `Mo`, `lun.`).
    static func weekdayShortName(_ day: Weekday) -> String {
        // 2024-01-01 was a Monday.
        format("%a", parts(CivilDate(daysSinceEpoch: 19723 + day.rawValue - 1)))
    }

    /// The first day of the locale's week; Monday in C and C.UTF-8 (although C's own data says
    /// Sunday), as petctl has always drawn it.
    static var firstWeekday: Weekday {
        let name = String(cString: cintl_time_locale())
        if name == "C" || name == "POSIX" || name.hasPrefix("C.") { return .monday }
        let first = Int(cintl_first_weekday())  // 0 = Sunday
        return Weekday(rawValue: first == 0 ? 7 : first) ?? .monday
    }

    private static func parts(_ date: CivilDate) -> tm {
        var parts = tm()
        parts.tm_year = Int32(date.year - 1900)
        parts.tm_mon = Int32(date.month - 1)
        parts.tm_mday = Int32(date.day)
        parts.tm_wday = Int32(date.weekday.rawValue % 7)  // strftime counts from Sunday
        return parts
    }

    /// strftime(3) under LC_TIME.
    static func format(_ format: String, _ parts: tm) -> String {
        var parts = parts
        var buffer = [CChar](repeating: 0, count: 256)
        let count = strftime(&buffer, buffer.count, format, &parts)
        return String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
