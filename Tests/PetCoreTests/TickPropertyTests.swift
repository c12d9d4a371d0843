import PropertyBased
import Testing

@testable import PetCore

/// Ticks in every zone at random instants of 1900–2100, where history holds odd offsets (local mean
/// time with seconds, skipped days, double summer time), checked second by second.
@Suite struct TickPropertyTests {
    static let zones: [String] = (try? SystemZones.names()) ?? ["UTC"]

    @Test func latestAndNextBracketEveryInstantWithNoTickBetween() async {
        let range: ClosedRange<Instant> = -2_208_988_800...4_102_444_800  // 1900 … 2100
        await propertyCheck(
            count: 600, input: Gen.element(of: Self.zones), Gen.int64(in: range), Gen.int64(in: -7200...7200)
        ) {
            name, t0, delta in
            guard let name, let zone = SystemZones.zone(name) else { return }
            // Mostly near an offset change, where ticks are interesting.
            let t = Self.transition(after: t0, zone).map { $0 + delta } ?? t0
            let next = Ticks.next(after: t, zone: zone)
            let latest = Ticks.latest(atOrBefore: t, zone: zone)
            #expect(Ticks.isTick(next, zone: zone) && Ticks.isTick(latest, zone: zone), "\(name) \(t)")
            #expect(latest <= t && t < next, "\(name) \(t): \(latest) \(next)")
            #expect(Ticks.next(after: latest, zone: zone) == next, "\(name) \(t)")
            #expect(Ticks.first(atOrAfter: latest, zone: zone) == latest)
            guard next - latest <= 2 * 86_400 else {
                Issue.record("\(name): \(next - latest) s between ticks at \(t)")
                return
            }
            // No instant strictly between is a local top of hour.
            var x = latest + 1
            while x < next {
                if Ticks.isTick(x, zone: zone) {
                    Issue.record("\(name): \(x) is a top of hour between \(latest) and \(next)")
                    return
                }
                x += 1
            }
        }
    }

    /// The zone's next offset change after `t`: from its table, else (in the footer's years) the
    /// first one within a year, found in six-hour steps and bisected.
    static func transition(after t: Instant, _ zone: Zone) -> Instant? {
        if let next = zone.rules.times.first(where: { $0 > t }) { return next }
        var a = t
        while a < t + 366 * 86_400 {
            let b = a + 6 * 3600
            if zone.offset(at: a) != zone.offset(at: b) { return Ticks.transition(from: a, to: b, zone: zone) }
            a = b
        }
        return nil
    }

    @Test func theNext24AreConsecutive() async {
        await propertyCheck(
            count: 200, input: Gen.element(of: Self.zones), Gen.int64(in: 1_700_000_000...1_900_000_000)
        ) { name, t in
            guard let name, let zone = SystemZones.zone(name) else { return }
            let ticks = Ticks.next(24, after: t, zone: zone)
            #expect(ticks.count == 24)
            var previous = t
            for tick in ticks {
                #expect(tick > previous && Ticks.latest(atOrBefore: tick - 1, zone: zone) <= previous, "\(name) \(t)")
                previous = tick
            }
        }
    }
}
