/// The open day of the run, as the test set it up: its key and interval (Unix seconds), with no
/// DST change inside it, so a wall time is `start` plus its minutes.
struct DayFrame {
    var key: String
    var start: Int64
    var end: Int64

    /// The instant of `HH:MM` on this day.
    func instant(_ time: String) -> Int64 {
        let parts = time.split(separator: ":").compactMap { Int64($0) }
        return start + (parts.first ?? 0) * 3600 + (parts.last ?? 0) * 60
    }

    /// `HH:MM` of an instant on this day.
    func wallTime(_ instant: Int64) -> String {
        let minutes = (instant - start) / 60
        let hh = minutes / 60
        let mm = minutes % 60
        return (hh < 10 ? "0" : "") + "\(hh):" + (mm < 10 ? "0" : "") + "\(mm)"
    }

    /// The id prefix of this day's tasks (petprogress(7) §3: a task id begins with its day key's digits).
    var idPrefix: String { key.filter { $0 != "-" } + "-" }
}
