import PetCore
import Testing

/// The one reading of a day a request names (petprogress(7) §6.1), shared by `AddTaskFor`, `ListTasks` and
/// `SetRest`: `"today"`, `"tomorrow"` or a day key; `""` is today only where the member says so.
@Suite struct DayNameTests {
    @Test(arguments: [
        ("today", DayName.today),
        ("tomorrow", .tomorrow),
        ("2026-03-10", .key(key("2026-03-10"))),
        ("2028-02-29", .key(key("2028-02-29"))),
    ])
    func namesADay(text: String, expected: DayName) {
        #expect(DayName(text, emptyIsToday: false) == expected)
        #expect(DayName(text, emptyIsToday: true) == expected)
    }

    @Test func theEmptyStringIsTodayOnlyWhereTheMemberSaysSo() {
        #expect(DayName("", emptyIsToday: true) == .today)
        #expect(DayName("", emptyIsToday: false) == nil)
    }

    @Test(arguments: ["Today", "TOMORROW", " today", "yesterday", "2026-3-10", "2026-02-30", "20260310", "2026-03-10 "])
    func namesNothingElse(text: String) {
        #expect(DayName(text, emptyIsToday: true) == nil)
    }

    /// With a 04:00 reset, 02:00 on the 10th is still the 9th's day; tomorrow is the 10th.
    @Test func resolvesToTheOpenDayTheNextDayOrTheKeyItself() {
        let tokyo = zone("Asia/Tokyo")
        var settings = Settings()
        settings.resetTime = wall("04:00")
        let world = PetWorld(now: at("2026-03-10T02:00:00+09:00"), zone: tokyo, settings: settings)
        #expect(world.key(of: .today, zone: tokyo) == key("2026-03-09"))
        #expect(world.key(of: .tomorrow, zone: tokyo) == key("2026-03-10"))
        #expect(world.key(of: .key(key("2026-01-01")), zone: tokyo) == key("2026-01-01"))
    }
}
