import PetCore
import Testing

/// POSIX TZ rule strings (POSIX.1-2017 §8.3 with RFC 8536's extensions), checked by hand at the
/// instants around their changes. `PosixTZGlibcTests` checks the same forms against glibc.
@Suite struct PosixTZTests {
    func rule(_ text: String) throws -> PosixTZ { try PosixTZ(parsing: text) }

    /// The offset just before `t` and at `t`.
    func change(_ r: PosixTZ, _ t: String) -> [Int] { [r.offset(at: at(t) - 1), r.offset(at: at(t))] }

    @Test func centralEuropeChangesOnTheLastSundays() throws {
        let r = try rule("CET-1CEST,M3.5.0,M10.5.0/3")
        #expect(change(r, "2026-03-29T01:00:00Z") == [3600, 7200])
        #expect(change(r, "2026-10-25T01:00:00Z") == [7200, 3600])
        #expect(r.offset(at: at("2026-07-01T12:00:00Z")) == 7200)
        #expect(r.offset(at: at("2026-01-01T00:00:00Z")) == 3600)
        // 2100: the fifth Sunday that does not exist is the last one (March 2100 has four... five).
        #expect(change(r, "2100-03-28T01:00:00Z") == [3600, 7200])
        #expect(change(r, "2100-10-31T01:00:00Z") == [7200, 3600])
    }

    @Test func quotedNamesAndMinuteOffsets() throws {
        let kathmandu = try rule("<+0545>-5:45")
        #expect(kathmandu.offset(at: 0) == 20_700)
        #expect(kathmandu.offset(at: at("2100-06-01T00:00:00Z")) == 20_700)
        #expect(kathmandu.daylight == nil)
        #expect(kathmandu.standard.name == "+0545")
        #expect(try rule("<-03>3").offset(at: 0) == -10_800)
        #expect(try rule("XXX-1:02:03").offset(at: 0) == 3723)
        #expect(try rule("XXX+4").offset(at: 0) == -14_400)
        #expect(try rule("UTC0").offset(at: 0) == 0)
        let chatham = try rule("<+1245>-12:45<+1345>,M9.5.0/2:45,M4.1.0/3:45")
        #expect(change(chatham, "2026-09-26T14:00:00Z") == [45_900, 49_500])  // Sep 27 02:45 +1245
        #expect(change(chatham, "2026-04-04T14:00:00Z") == [49_500, 45_900])  // Apr 5 03:45 +1345
    }

    @Test func southernHemisphereIsInDaylightTimeAcrossNewYear() throws {
        let sydney = try rule("AEST-10AEDT,M10.1.0,M4.1.0/3")
        #expect(sydney.offset(at: at("2026-01-15T00:00:00Z")) == 39_600)
        #expect(sydney.offset(at: at("2026-12-31T23:00:00Z")) == 39_600)
        #expect(sydney.offset(at: at("2026-07-01T00:00:00Z")) == 36_000)
        #expect(change(sydney, "2026-04-04T16:00:00Z") == [39_600, 36_000])  // Apr 5 03:00 AEDT
        #expect(change(sydney, "2026-10-03T16:00:00Z") == [36_000, 39_600])  // Oct 4 02:00 AEST
        let lordHowe = try rule("<+1030>-10:30<+11>-11,M10.1.0,M4.1.0")
        #expect(change(lordHowe, "2026-04-04T15:00:00Z") == [39_600, 37_800])
        #expect(change(lordHowe, "2026-10-03T15:30:00Z") == [37_800, 39_600])
    }

    @Test func negativeAndLongChangeTimes() throws {
        // America/Nuuk: DST starts at -01:00 on the last Sunday of March (23:00 on Saturday).
        let nuuk = try rule("<-02>2<-01>,M3.5.0/-1,M10.5.0/0")
        #expect(change(nuuk, "2026-03-29T01:00:00Z") == [-7200, -3600])
        #expect(change(nuuk, "2026-10-25T01:00:00Z") == [-3600, -7200])
        // Asia/Gaza: 50 hours after the start of the fourth Thursday (26 March and 22 October 2026).
        let gaza = try rule("EET-2EEST,M3.4.4/50,M10.4.4/50")
        #expect(change(gaza, "2026-03-28T00:00:00Z") == [7200, 10_800])
        #expect(change(gaza, "2026-10-23T23:00:00Z") == [10_800, 7200])
        let hours = try rule("XXX0YYY,M3.5.0/167,M10.5.0/-167:59:59")
        #expect(hours.daylight?.start.time == 167 * 3600)
        #expect(hours.daylight?.end.time == -604_799)  // -(167 h 59 min 59 s)
    }

    @Test func negativeDaylightSavingAsInDublin() throws {
        // Irish Standard Time is the summer time; GMT is the "daylight" period, in winter.
        let dublin = try rule("IST-1GMT0,M10.5.0,M3.5.0/1")
        #expect(dublin.offset(at: at("2026-07-01T00:00:00Z")) == 3600)
        #expect(dublin.offset(at: at("2026-01-01T00:00:00Z")) == 0)
        #expect(change(dublin, "2026-10-25T01:00:00Z") == [3600, 0])
        #expect(change(dublin, "2026-03-29T01:00:00Z") == [0, 3600])
    }

    @Test func julianDayForms() throws {
        // Jn counts 1…365 and never February 29: J60 is March 1 in every year.
        let j = try rule("XXX3YYY,J60/2,J300/2")
        #expect(change(j, "2024-03-01T05:00:00Z") == [-10_800, -7200])
        #expect(change(j, "2025-03-01T05:00:00Z") == [-10_800, -7200])
        // n counts 0…365 and includes February 29: 59 is February 29 in 2024, March 1 in 2025.
        let n = try rule("XXX3YYY,59/2,299/2")
        #expect(change(n, "2024-02-29T05:00:00Z") == [-10_800, -7200])
        #expect(change(n, "2025-03-01T05:00:00Z") == [-10_800, -7200])
        #expect(n.daylight?.start.date == .zeroBased(59))
        #expect(j.daylight?.start.date == .julian(60))
    }

    @Test func daylightDefaultsToOneHourAheadAndTheUSDates() throws {
        let r = try rule("EST5EDT")
        #expect(r.daylight?.offset == -14_400)
        #expect(change(r, "2026-03-08T07:00:00Z") == [-18_000, -14_400])  // second Sunday of March, 02:00
        #expect(change(r, "2026-11-01T06:00:00Z") == [-14_400, -18_000])  // first Sunday of November
        #expect(try rule("EST5EDT4,M3.2.0/2:00:00,M11.1.0/2:00:00") == r)
    }

    @Test(arguments: [
        "", "CET", "CE-1", "C3T-1", "CET-1CEST,M3.5.0", "CET-1CEST,M13.5.0,M10.5.0/3", "CET-1CEST,M3.6.0,M10.5.0",
        "CET-1CEST,M3.5.7,M10.5.0", "CET-1CEST,M0.5.0,M10.5.0", "CET-1CEST,J0,J100", "CET-1CEST,J366,J100",
        "CET-1CEST,366,100", "CET-25", "CET-1:60", "CET-1:00:60", "<+05", "<>5", "<+5>-5",
        "CET-1CEST,M3.5.0/168,M10.5.0", "CET-1x", "CET-1CEST-2,M3.5.0,M10.5.0/3junk", "CET-1CEST,M3.5.0,", "CET-",
        "CET-1CEST,M3.5.0,M10.5.0/", "CET-1CEST,M3.5,M10.5.0", "CET-1CEST,M3..0,M10.5.0", "CET+-1", "CET-123",
        "CET-1CEST,J,J1", "CET-1CEST,M3.5.0/1:2:3:4,M10.5.0", "CET\u{0}-1", "CET-1CEST,M3.5.0 ,M10.5.0",
        "Europe/Berlin", ":Europe/Berlin", "/usr/share/zoneinfo/UTC",
    ])
    func garbageIsRejectedWithASentence(_ text: String) {
        #expect(throws: ZoneError.self, "\(text)") { try PosixTZ(parsing: text) }
        do {
            _ = try PosixTZ(parsing: text)
        } catch {
            #expect(!error.message.isEmpty)
        }
    }

    @Test func aVeryLongStringIsRejectedQuickly() {
        #expect(throws: ZoneError.self) { try PosixTZ(parsing: String(repeating: "A", count: 100_000) + "5") }
        #expect(throws: ZoneError.self) { try PosixTZ(parsing: "CET-" + String(repeating: "1", count: 10_000)) }
    }

    @Test func instantsFarOutDoNotTrap() throws {
        let r = try rule("CET-1CEST,M3.5.0,M10.5.0/3")
        for t in [Instant.min, Instant.min + 1, -1 << 59, 1 << 59, Instant.max - 1, Instant.max] {
            #expect([3600, 7200].contains(r.offset(at: t)))
        }
    }
}
