import CIntl
import Glibc
import PetCore

/// How the LC_TIME locale writes a time of day: on a 12- or a 24-hour clock, and in how many
/// columns its widest time fits. A command's `run` makes one, as it makes its ``Session``, and
/// passes it down to whatever shows a time. It is worked out on first use, once: every time on a
/// screen asks, and a command that shows none (`petctl done` without an evolution, `widget
/// --format json`) never pays for it. A test that changes the locale makes a new one.
final class ClockStyle {
    private var known: (twelveHour: Bool, columnWidth: Int)?

    /// The style of the LC_TIME locale in force when it is first asked.
    init() {}

    /// A given style, whatever the locale.
    init(twelveHour: Bool, columnWidth: Int) { known = (twelveHour, columnWidth) }

    /// Whether the LC_TIME locale writes times on a 12-hour clock: its time format names one
    /// (`%r`, `%I`, `%l`; en_US) and it has AM and PM words. C and C.UTF-8 say `%H:%M:%S`.
    var twelveHour: Bool { style.twelveHour }

    /// The columns of the locale's widest time (`10:00 AM`, `10:00 PM` or `22:00`).
    var columnWidth: Int { style.columnWidth }

    private var style: (twelveHour: Bool, columnWidth: Int) {
        if let known { return known }
        let style = Self.workedOut()
        known = style
        return style
    }

    private static func workedOut() -> (twelveHour: Bool, columnWidth: Int) {
        let timeFormat = Array(String(cString: cintl_time_format()).utf8)
        let twelve = zip(timeFormat, timeFormat.dropFirst()).contains { directive, letter in
            directive == UInt8(ascii: "%") && "rIl".utf8.contains(letter)
        }
        let twelveHour = twelve && !LocalClock.format("%p", tm()).isEmpty
        let width =
            [10, 22].map { hour in
                var parts = tm()
                parts.tm_hour = Int32(hour)
                return TextWidth.columns(clock(parts, twelveHour: twelveHour))
            }.max() ?? 5
        return (twelveHour, width)
    }

    /// `14:30`, or `2:30 PM` where the locale's clock is a 12-hour one.
    func time(_ instant: Instant) -> String {
        var t = time_t(instant)
        var parts = tm()
        guard localtime_r(&t, &parts) != nil else { return "--:--" }
        return Self.clock(parts, twelveHour: twelveHour)
    }

    /// A wall time the daemon sent (`HH:MM`) as the locale shows it, right-aligned to the
    /// locale's widest time so that a column of them lines up (`09:30` or ` 9:30 AM`).
    func column(_ wallTime: String) -> String {
        // A 24-hour locale shows the daemon's own `HH:MM`: no parsing (it costs 33 k instructions
        // a row, as much as the rest of the row).
        guard twelveHour else { return TextWidth.padLeft(wallTime, to: columnWidth) }
        guard let time = WallTime(parsing: wallTime) else { return wallTime }
        var parts = tm()
        parts.tm_hour = Int32(time.hour)
        parts.tm_min = Int32(time.minute)
        return TextWidth.padLeft(Self.clock(parts, twelveHour: true), to: columnWidth)
    }

    /// A wall time the daemon sent (`HH:MM`) as the locale shows it in a sentence, unpadded
    /// (`9:30 AM`, or the daemon's own `09:30`).
    func wall(_ wallTime: String) -> String {
        guard twelveHour, let time = WallTime(parsing: wallTime) else { return wallTime }
        var parts = tm()
        parts.tm_hour = Int32(time.hour)
        parts.tm_min = Int32(time.minute)
        return Self.clock(parts, twelveHour: true)
    }

    private static func clock(_ parts: tm, twelveHour: Bool) -> String {
        twelveHour
            ? LocalClock.format("%-I:%M %p", parts)
            : LocalClock.pad(Int(parts.tm_hour)) + ":" + LocalClock.pad(Int(parts.tm_min))
    }
}

extension ClockStyle: Equatable {
    /// The same clock: both 12- or both 24-hour, of the same width.
    static func == (lhs: ClockStyle, rhs: ClockStyle) -> Bool {
        lhs.twelveHour == rhs.twelveHour && lhs.columnWidth == rhs.columnWidth
    }
}
