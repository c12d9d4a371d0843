import Glibc
import PetCore

/// Instants as this process's local wall clock shows them (glibc: `TZ`, else /etc/localtime) —
/// the zone the person at this terminal lives in.
enum LocalClock {
    /// `HH:MM` at `instant`.
    static func time(_ instant: Instant) -> String {
        var t = time_t(instant)
        var parts = tm()
        guard localtime_r(&t, &parts) != nil else { return "--:--" }
        return pad(Int(parts.tm_hour)) + ":" + pad(Int(parts.tm_min))
    }

    private static func pad(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }

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
        return "\(date.weekday.shortName.capitalizedFirst) \(shortDate(date))"
    }

    /// `2 Mar`.
    static func shortDate(_ date: CivilDate) -> String { "\(date.day) \(monthNames[date.month - 1].prefix(3))" }

    static let monthNames = [
        "January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November",
        "December",
    ]

    /// `Monday 2 March` for a day key `YYYY-MM-DD` (its own calendar date, no zone involved).
    static func dayName(_ key: String) -> String {
        guard let date = CivilDate(parsing: key) else { return key }
        let weekdays = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]
        return "\(weekdays[date.weekday.rawValue - 1]) \(date.day) \(monthNames[date.month - 1])"
    }
}

extension String {
    /// The first letter upper-cased (ASCII names: `mon` → `Mon`).
    var capitalizedFirst: String { prefix(1).uppercased() + dropFirst() }
}
