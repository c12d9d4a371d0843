import PetCore
import Testing

/// Hand-checked ticks (petprogress(7) §3.2) in the awkward zones: DST both ways, 30- and 45-minute offsets,
/// and a zone change between calls.
@Suite struct TickTests {
    func zone(_ id: String) throws -> Zone { try #require(SystemZones.zone(id), "the system tzdata lacks \(id)") }

    /// Unix seconds of a UTC date-time.
    func utc(_ y: Int, _ mo: Int, _ d: Int, _ h: Int, _ mi: Int = 0, _ s: Int = 0) -> Instant {
        let days: Int = CivilDate(year: y, month: mo, day: d)?.daysSinceEpoch ?? 0
        let seconds: Int = h * 3600 + mi * 60 + s
        return Instant(days * 86_400 + seconds)
    }

    func wall(_ t: Instant, _ z: Zone) -> String {
        let l = z.localTime(at: t)
        return "\(l.date) \(l.hour):\(l.minute):\(l.second)"
    }

    @Test func utcIsEveryWholeHour() {
        let t = utc(2026, 3, 2, 14, 25, 7)
        #expect(Ticks.next(after: t, zone: .utc) == utc(2026, 3, 2, 15))
        #expect(Ticks.latest(atOrBefore: t, zone: .utc) == utc(2026, 3, 2, 14))
        // A tick is not after itself; it is the latest at or before itself.
        #expect(Ticks.next(after: utc(2026, 3, 2, 15), zone: .utc) == utc(2026, 3, 2, 16))
        #expect(Ticks.latest(atOrBefore: utc(2026, 3, 2, 15), zone: .utc) == utc(2026, 3, 2, 15))
    }

    @Test func kathmanduTicksAtQuarterPastInUTC() throws {
        let z = try zone("Asia/Kathmandu")  // +05:45
        let t = utc(2026, 6, 1, 10, 0)  // 15:45 local
        #expect(Ticks.next(after: t, zone: z) == utc(2026, 6, 1, 10, 15))  // 16:00 local
        #expect(Ticks.next(24, after: t, zone: z).allSatisfy { Ticks.isTick($0, zone: z) })
        #expect(Ticks.latest(atOrBefore: t, zone: z) == utc(2026, 6, 1, 9, 15))
    }

    @Test func kolkataHalfHour() throws {
        let z = try zone("Asia/Kolkata")  // +05:30
        #expect(Ticks.next(after: utc(2026, 1, 1, 0, 0), zone: z) == utc(2026, 1, 1, 0, 30))
    }

    /// Berlin, 2026-03-29: 02:00 CET jumps to 03:00 CEST at 01:00 UTC. 01:00 CET and 03:00 CEST
    /// are one real hour apart, and there is no 02:00.
    @Test func springForwardHasNoSkippedWallHourTick() throws {
        let z = try zone("Europe/Berlin")
        let ticks = Ticks.next(3, after: utc(2026, 3, 28, 23, 30), zone: z)
        #expect(ticks == [utc(2026, 3, 29, 0), utc(2026, 3, 29, 1), utc(2026, 3, 29, 2)])
        #expect(ticks.map { z.localTime(at: $0).hour } == [1, 3, 4])
    }

    /// Berlin, 2026-10-25: 03:00 CEST falls back to 02:00 CET at 01:00 UTC. The wall hour 02:00
    /// happens twice, so it gives two ticks an hour apart; no instant is a tick twice.
    @Test func fallBackRepeatsTheWallHour() throws {
        let z = try zone("Europe/Berlin")
        let ticks = Ticks.next(4, after: utc(2026, 10, 24, 23, 30), zone: z)
        #expect(ticks == [utc(2026, 10, 25, 0), utc(2026, 10, 25, 1), utc(2026, 10, 25, 2), utc(2026, 10, 25, 3)])
        #expect(ticks.map { z.localTime(at: $0).hour } == [2, 2, 3, 4])
        #expect(Ticks.latest(atOrBefore: utc(2026, 10, 25, 1, 30), zone: z) == utc(2026, 10, 25, 1))
        #expect(Ticks.latest(atOrBefore: utc(2026, 10, 25, 0, 59, 59), zone: z) == utc(2026, 10, 25, 0))
    }

    /// Lord Howe moves by 30 minutes: 02:00 +10:30 → 02:30 +11 on 2026-10-04 (15:30 UTC on the 3rd).
    /// The gap's end, 02:30, is not a top of hour; after 01:00 the next tick is 03:00 +11, 90
    /// minutes later.
    @Test func lordHoweHalfHourDST() throws {
        let z = try zone("Australia/Lord_Howe")
        let last = Ticks.latest(atOrBefore: utc(2026, 10, 3, 14, 40), zone: z)
        let ticks = Ticks.next(2, after: utc(2026, 10, 3, 14, 40), zone: z)
        #expect(wall(last, z) == "2026-10-04 1:0:0")
        #expect(ticks.map { wall($0, z) } == ["2026-10-04 3:0:0", "2026-10-04 4:0:0"])
        #expect(ticks[0] - last == 5400)
        // Back in April: 02:00 +11 → 01:30 +10:30, so 01:30–02:00 repeats but 02:00 does not.
        let april = Ticks.next(3, after: utc(2026, 4, 4, 13, 30), zone: z)
        #expect(april.map { wall($0, z) } == ["2026-04-05 1:0:0", "2026-04-05 2:0:0", "2026-04-05 3:0:0"])
        #expect(april[1] - april[0] == 5400)
    }

    /// The zone is a parameter: the same instant has different next ticks in different zones, and
    /// a change between calls needs no state.
    @Test func zoneChangeBetweenCalls() throws {
        let t = utc(2026, 6, 1, 10, 20)
        let utcTick = Ticks.next(after: t, zone: .utc)
        let kathmandu = Ticks.next(after: t, zone: try zone("Asia/Kathmandu"))
        let adelaide = Ticks.next(after: t, zone: try zone("Australia/Adelaide"))  // +09:30 in June
        #expect(utcTick == utc(2026, 6, 1, 11))
        #expect(kathmandu == utc(2026, 6, 1, 11, 15))
        #expect(adelaide == utc(2026, 6, 1, 10, 30))
    }

    @Test func negativeInstants() throws {
        let z = try zone("America/St_Johns")  // −03:30 in 1969
        let t: Instant = -1_000_000
        let next = Ticks.next(after: t, zone: z)
        #expect(Ticks.isTick(next, zone: z) && next > t && next - t <= 3600)
        #expect(Ticks.latest(atOrBefore: t, zone: z) == Ticks.latest(atOrBefore: next - 1, zone: z))
    }
}
