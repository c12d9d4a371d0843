import PetCore
import Testing

@Suite struct CivilDateTests {
    @Test func roundTripsAcrossCenturies() {
        for days in stride(from: -200_000, through: 200_000, by: 97) {
            let d = CivilDate(daysSinceEpoch: days)
            #expect(d.daysSinceEpoch == days)
            #expect(CivilDate(parsing: d.description) == d)
        }
    }

    @Test func weekdaysAndParsing() {
        #expect(key("1970-01-01").weekday == .thursday)
        #expect(key("2026-03-02").weekday == .monday)
        #expect(key("2026-11-22").weekday == .sunday)
        #expect(CivilDate(parsing: "2026-02-29") == nil)
        #expect(CivilDate(parsing: "2028-02-29") != nil)
        #expect(CivilDate(parsing: "2026-3-02") == nil)
        #expect(key("2026-03-02").digits == "20260302")
    }

    @Test(arguments: ["7:00", "24:00", "12:60", "ab:cd", "12-00", "12:000", "", "１２:００", "١٢:٠٠", " 12:00"])
    func badWallTimes(text: String) {
        #expect(WallTime(parsing: text) == nil)
        #expect(throws: PetError.self) { try WallTime.parse(text) }
    }

    @Test func goodWallTimes() {
        #expect(WallTime(parsing: "00:00") == .midnight)
        #expect(WallTime(parsing: "23:59")?.secondsSinceMidnight == 86_340)
    }
}

@Suite struct DayCalendarTests {
    let utc = Zone.utc
    let berlin = zone("Europe/Berlin")
    let newYork = zone("America/New_York")
    let lordHowe = zone("Australia/Lord_Howe")

    // petprogress(7) §3: with reset 04:00, Tuesday 01:30 belongs to Monday's day.
    @Test func resetAtFourKeepsTheSmallHoursInTheDayBefore() {
        let d = DayCalendar.firstDay(containing: at("2026-03-03T01:30:00Z"), resetTime: wall("04:00"), zone: utc)
        #expect(d == day("2026-03-02", "2026-03-02T04:00:00Z", "2026-03-03T04:00:00Z"))
        let next = DayCalendar.day(after: d, resetTime: wall("04:00"), zone: utc)
        #expect(next == day("2026-03-03", "2026-03-03T04:00:00Z", "2026-03-04T04:00:00Z"))
    }

    @Test func firstDayStartsAtTheResetInstantItself() {
        let d = DayCalendar.firstDay(containing: at("2026-03-03T04:00:00Z"), resetTime: wall("04:00"), zone: utc)
        #expect(d.key == key("2026-03-03"))
        #expect(d.contains(at("2026-03-03T04:00:00Z")))
    }

    @Test func firstDayComesAfterHistorysLastDay() {
        let d = DayCalendar.firstDay(
            containing: at("2026-03-03T10:00:00Z"), resetTime: .midnight, zone: utc, after: key("2026-03-03"))
        #expect(d.key == key("2026-03-04"))
        #expect(d.start == at("2026-03-03T00:00:00Z"))
    }

    // 00:00 → 23:00: the transition day is shortened to 23 h; the next key never repeats.
    @Test func resetMovesEarlierFromMidnightToEleven() {
        let open = day("2026-03-02", "2026-03-02T00:00:00Z", "2026-03-03T00:00:00Z")
        let t1 = DayCalendar.day(after: open, resetTime: wall("23:00"), zone: utc)
        #expect(t1 == day("2026-03-03", "2026-03-03T00:00:00Z", "2026-03-03T23:00:00Z"))
        let t2 = DayCalendar.day(after: t1, resetTime: wall("23:00"), zone: utc)
        #expect(t2 == day("2026-03-04", "2026-03-03T23:00:00Z", "2026-03-04T23:00:00Z"))
    }

    // 23:00 → 00:00: the transition day is lengthened to 25 h.
    @Test func resetMovesLaterFromElevenToMidnight() {
        let open = day("2026-03-04", "2026-03-03T23:00:00Z", "2026-03-04T23:00:00Z")
        let t1 = DayCalendar.day(after: open, resetTime: .midnight, zone: utc)
        #expect(t1 == day("2026-03-05", "2026-03-04T23:00:00Z", "2026-03-06T00:00:00Z"))
        #expect(t1.end - t1.start == 25 * hour)
    }

    /// Any reset change gives a transition day of 12–36 hours, and keys always increase.
    @Test func transitionDaysLastTwelveToThirtySixHours() {
        let times = stride(from: 0, to: 24 * 60, by: 30).map { WallTime(hour: $0 / 60, minute: $0 % 60)! }
        for from in times {
            let open = DayCalendar.firstDay(containing: at("2026-05-10T12:00:00Z"), resetTime: from, zone: berlin)
            for to in times {
                let next = DayCalendar.day(after: open, resetTime: to, zone: berlin)
                #expect((12 * hour...36 * hour).contains(next.end - next.start), "\(from) → \(to)")
                #expect(next.key > open.key)
            }
        }
    }

    // Berlin 2026-03-29: 02:00 CET jumps to 03:00 CEST (gap).
    @Test func berlinSpringGap() {
        let d = DayCalendar.firstDay(containing: at("2026-03-29T10:00:00Z"), resetTime: .midnight, zone: berlin)
        #expect(d == day("2026-03-29", "2026-03-28T23:00:00Z", "2026-03-29T22:00:00Z"))
        #expect(d.end - d.start == 23 * hour)
        #expect(
            DayCalendar.instant(of: wall("02:30"), in: d, zone: berlin) == at("2026-03-29T01:00:00Z"),
            "gap → first instant after it")
        #expect(DayCalendar.instant(of: wall("02:00"), in: d, zone: berlin) == at("2026-03-29T01:00:00Z"))
        #expect(DayCalendar.instant(of: wall("03:00"), in: d, zone: berlin) == at("2026-03-29T01:00:00Z"))
        #expect(DayCalendar.instant(of: wall("01:59"), in: d, zone: berlin) == at("2026-03-29T00:59:00Z"))
        // A reset time inside the gap ends the day at the first instant after the gap.
        let g = DayCalendar.firstDay(containing: at("2026-03-28T12:00:00Z"), resetTime: wall("02:30"), zone: berlin)
        #expect(g.end == at("2026-03-29T01:00:00Z"))
        #expect(DayCalendar.day(after: g, resetTime: wall("02:30"), zone: berlin).end == at("2026-03-30T00:30:00Z"))
    }

    // Berlin 2026-10-25: 03:00 CEST falls back to 02:00 CET (fold; 02:30 happens twice).
    @Test func berlinAutumnFold() {
        let d = DayCalendar.firstDay(containing: at("2026-10-25T10:00:00Z"), resetTime: .midnight, zone: berlin)
        #expect(d == day("2026-10-25", "2026-10-24T22:00:00Z", "2026-10-25T23:00:00Z"))
        #expect(d.end - d.start == 25 * hour)
        #expect(
            DayCalendar.instant(of: wall("02:30"), in: d, zone: berlin) == at("2026-10-25T00:30:00Z"),
            "first occurrence")
        #expect(
            berlin.placements(on: key("2026-10-25"), at: wall("02:30")) == [
                at("2026-10-25T00:30:00Z"), at("2026-10-25T01:30:00Z"),
            ])
        // A reset inside the fold ends the day at the first occurrence.
        let f = DayCalendar.firstDay(containing: at("2026-10-24T12:00:00Z"), resetTime: wall("02:30"), zone: berlin)
        #expect(f.end == at("2026-10-25T00:30:00Z"))
        #expect(f.end - f.start == 24 * hour)
        let g = DayCalendar.day(after: f, resetTime: wall("02:30"), zone: berlin)
        #expect(g.end - g.start == 25 * hour)
    }

    @Test func newYorkGapAndFold() {
        let spring = DayCalendar.firstDay(containing: at("2026-03-08T15:00:00Z"), resetTime: .midnight, zone: newYork)
        #expect(spring == day("2026-03-08", "2026-03-08T05:00:00Z", "2026-03-09T04:00:00Z"))
        #expect(DayCalendar.instant(of: wall("02:15"), in: spring, zone: newYork) == at("2026-03-08T07:00:00Z"))
        let autumn = DayCalendar.firstDay(containing: at("2026-11-01T15:00:00Z"), resetTime: .midnight, zone: newYork)
        #expect(autumn.end - autumn.start == 25 * hour)
        #expect(DayCalendar.instant(of: wall("01:30"), in: autumn, zone: newYork) == at("2026-11-01T05:30:00Z"))
        #expect(newYork.placements(on: key("2026-11-01"), at: wall("01:30")).count == 2)
    }

    // Lord Howe: +10:30 standard, +11 summer; the clocks move by 30 minutes.
    @Test func lordHoweHalfHourShifts() {
        // 2026-10-04 02:00 +10:30 jumps to 02:30 +11 (gap of 30 min): a 23.5-hour day.
        let spring = DayCalendar.firstDay(containing: at("2026-10-04T02:00:00Z"), resetTime: .midnight, zone: lordHowe)
        #expect(spring == day("2026-10-04", "2026-10-03T13:30:00Z", "2026-10-04T13:00:00Z"))
        #expect(DayCalendar.instant(of: wall("02:15"), in: spring, zone: lordHowe) == at("2026-10-03T15:30:00Z"))
        #expect(lordHowe.wallTime(at: at("2026-10-03T15:30:00Z")) == wall("02:30"))
        // 2026-04-05 02:00 +11 falls back to 01:30 +10:30: 01:45 happens twice; a 24.5-hour day.
        let autumn = DayCalendar.firstDay(containing: at("2026-04-05T02:00:00Z"), resetTime: .midnight, zone: lordHowe)
        #expect(autumn.end - autumn.start == 24 * hour + 1800)
        #expect(DayCalendar.instant(of: wall("01:45"), in: autumn, zone: lordHowe) == at("2026-04-04T14:45:00Z"))
        #expect(
            lordHowe.placements(on: key("2026-04-05"), at: wall("01:45")) == [
                at("2026-04-04T14:45:00Z"), at("2026-04-04T15:15:00Z"),
            ])
    }

    // Flying west at night: Berlin's day ends at 18:00 New York time; the next day gets the next
    // key (never a second day with the same key) and runs until New York's midnight.
    @Test func westwardZoneChangeAtNight() {
        let open = DayCalendar.firstDay(containing: at("2026-06-10T12:00:00Z"), resetTime: .midnight, zone: berlin)
        #expect(open == day("2026-06-10", "2026-06-09T22:00:00Z", "2026-06-10T22:00:00Z"))
        let next = DayCalendar.day(after: open, resetTime: .midnight, zone: newYork)
        #expect(next == day("2026-06-11", "2026-06-10T22:00:00Z", "2026-06-12T04:00:00Z"))
        #expect(next.end - next.start == 30 * hour)
        let after = DayCalendar.day(after: next, resetTime: .midnight, zone: newYork)
        #expect(after.key == key("2026-06-12"))
        // The day starts at 18:00 New York time on the 10th, so its first 23:00 is that evening.
        #expect(DayCalendar.instant(of: wall("23:00"), in: next, zone: newYork) == at("2026-06-11T03:00:00Z"))
        #expect(DayCalendar.instant(of: wall("09:00"), in: next, zone: newYork) == at("2026-06-11T13:00:00Z"))
    }

    // A time that falls nowhere in a shortened transition day is rejected (nil here).
    @Test func timeOutsideShortenedDay() {
        let short = day("2026-03-03", "2026-03-03T00:00:00Z", "2026-03-03T23:00:00Z")
        #expect(DayCalendar.instant(of: wall("23:30"), in: short, zone: utc) == nil)
        #expect(DayCalendar.instant(of: wall("22:59"), in: short, zone: utc) == at("2026-03-03T22:59:00Z"))
        let four = day("2026-03-02", "2026-03-02T04:00:00Z", "2026-03-03T04:00:00Z")
        #expect(DayCalendar.instant(of: wall("02:00"), in: four, zone: utc) == at("2026-03-03T02:00:00Z"))
    }

    @Test func kathmanduQuarterHourOffset() {
        let k = zone("Asia/Kathmandu")
        let d = DayCalendar.firstDay(containing: at("2026-07-01T12:00:00Z"), resetTime: .midnight, zone: k)
        #expect(d == day("2026-07-01", "2026-06-30T18:15:00Z", "2026-07-01T18:15:00Z"))
    }
}
