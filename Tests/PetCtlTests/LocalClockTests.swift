import Glibc
import PetCore
import Testing

@testable import petctl

/// LocalClock's names and weeks, and ClockStyle's clocks, under each locale's LC_TIME (petprogress(7)
/// §7). setlocale is the whole process's, so the cases run one at a time and put C back after each. The catalogue's
/// formats (German `%A, %-d. %B`) are the integration tests'; here the C library's data alone.
@Suite(.serialized) struct LocalClockTests {
    /// `body` under LC_TIME `name`, then C again.
    static func under<T>(_ name: String, _ body: () -> T) throws -> T {
        try #require(setlocale(LC_TIME, name) != nil, "the \(name) locale is generated (scripts/deps.sh test)")
        defer { setlocale(LC_TIME, "C") }
        return body()
    }

    static let monday = CivilDate(parsing: "2026-03-02")!

    struct Case: Sendable, CustomStringConvertible {
        let locale: String
        let first: Weekday
        let heads: String
        let weekday: String
        let shortDate: String
        let morning: String
        let evening: String
        var description: String { locale }
    }

    static let cases = [
        Case(
            locale: "C.UTF-8", first: .monday, heads: "Mon Tue Wed Thu Fri Sat Sun", weekday: "Monday",
            shortDate: "2 Mar", morning: "09:05", evening: "21:30"),
        Case(
            locale: "C", first: .monday, heads: "Mon Tue Wed Thu Fri Sat Sun", weekday: "Monday",
            shortDate: "2 Mar", morning: "09:05", evening: "21:30"),
        Case(
            locale: "de_DE.UTF-8", first: .monday, heads: "Mo  Di  Mi  Do  Fr  Sa  So ", weekday: "Montag",
            shortDate: "2 Mär", morning: "09:05", evening: "21:30"),
        Case(
            locale: "fr_FR.UTF-8", first: .monday, heads: "lun mar mer jeu ven sam dim", weekday: "lundi",
            shortDate: "2 mars", morning: "09:05", evening: "21:30"),
        Case(
            locale: "en_US.UTF-8", first: .sunday, heads: "Sun Mon Tue Wed Thu Fri Sat", weekday: "Monday",
            shortDate: "2 Mar", morning: " 9:05 AM", evening: " 9:30 PM"),
    ]

    @Test(arguments: cases)
    func namesWeeksAndClocks(_ c: Case) throws {
        let seen = try Self.under(c.locale) {
            let first = LocalClock.firstWeekday
            let heads = (0..<7).compactMap { Weekday(rawValue: (first.rawValue - 1 + $0) % 7 + 1) }
            return Case(
                locale: c.locale, first: first, heads: heads.map(LocalClock.weekdayHead).joined(separator: " "),
                weekday: LocalClock.weekdayName(Self.monday), shortDate: LocalClock.shortDate(Self.monday),
                morning: ClockStyle().column("09:05"), evening: ClockStyle().column("21:30"))
        }
        #expect(seen.first == c.first)
        #expect(seen.heads == c.heads)
        #expect(seen.weekday == c.weekday)
        #expect(seen.shortDate == c.shortDate)
        #expect(seen.morning == c.morning)
        #expect(seen.evening == c.evening)
    }

    /// An instant's clock: 24-hour in C, the locale's AM/PM in en_US; the bus's `HH:MM` always.
    @Test func instants() throws {
        var t = time_t(0)
        var parts = tm()
        // 2026-03-02 21:07 local, whatever the zone the tests run in.
        parts.tm_year = 126
        parts.tm_mon = 2
        parts.tm_mday = 2
        parts.tm_hour = 21
        parts.tm_min = 7
        parts.tm_isdst = -1
        t = mktime(&parts)
        let instant = Instant(t)
        #expect(try Self.under("C.UTF-8") { ClockStyle().time(instant) } == "21:07")
        #expect(try Self.under("de_DE.UTF-8") { ClockStyle().time(instant) } == "21:07")
        #expect(try Self.under("en_US.UTF-8") { ClockStyle().time(instant) } == "9:07 PM")
        #expect(try Self.under("en_US.UTF-8") { LocalClock.hhmm(instant) } == "21:07")
        #expect(try Self.under("C.UTF-8") { LocalClock.dayName("2026-03-02") } == "Monday 2 March")
        #expect(try Self.under("C.UTF-8") { LocalClock.shortDayName("2026-03-02") } == "Mon 2 Mar")
    }
}
