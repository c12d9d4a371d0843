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

    /// `Monday 2 March` for a day key `YYYY-MM-DD` (its own calendar date, no zone involved).
    static func dayName(_ key: String) -> String {
        guard let date = CivilDate(parsing: key) else { return key }
        let weekdays = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]
        let months = [
            "January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
            "November", "December",
        ]
        return "\(weekdays[date.weekday.rawValue - 1]) \(date.day) \(months[date.month - 1])"
    }
}
