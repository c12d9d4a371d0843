/// Hourly ticks (petprogress(7) §3.2): every instant whose local wall time is minute 0, second 0.
///
/// Ticks are found from the zone's offsets alone, never by rounding instants to 3600 s: within a
/// stretch of constant offset `o` the ticks are the instants `t ≡ −o (mod 3600)`, and where the
/// offset changes the search restarts at the transition instant. So a DST fold gives two ticks an
/// hour apart for the repeated wall hour, a gap gives none for the skipped one, and 30- and
/// 45-minute offsets (Asia/Kathmandu, Australia/Lord_Howe) need nothing special. Every function
/// takes the zone as a parameter, so a zone change between calls is just a different argument.
public enum Ticks {
    static let hour: Int64 = 3600

    /// Whether `t` is a tick in `zone`: its local wall time is minute 0, second 0.
    public static func isTick(_ t: Instant, zone: Zone) -> Bool {
        floorMod(zone.wallSeconds(at: t), hour) == 0
    }

    /// The first tick strictly after `t`.
    public static func next(after t: Instant, zone: Zone) -> Instant {
        first(atOrAfter: t + 1, zone: zone)
    }

    /// The `count` ticks strictly after `t`, ascending (the timeline's 24).
    public static func next(_ count: Int, after t: Instant, zone: Zone) -> [Instant] {
        var ticks: [Instant] = []
        ticks.reserveCapacity(max(count, 0))
        var last = t
        for _ in 0..<max(count, 0) {
            last = next(after: last, zone: zone)
            ticks.append(last)
        }
        return ticks
    }

    /// The latest tick at or before `t` (the tick whose snapshot the widget shows at `t`).
    public static func latest(atOrBefore t: Instant, zone: Zone) -> Instant {
        var s = t
        while true {
            let offset = zone.offset(at: s)
            let candidate = s - floorMod(s + Int64(offset), hour)
            if zone.offset(at: candidate) == offset { return candidate }
            // The offset changed in (candidate, s]: the last stretch starts at a transition.
            let start = transition(from: candidate, to: s, zone: zone)
            if isTick(start, zone: zone) { return start }
            s = start - 1
        }
    }

    /// The first tick at or after `t`.
    public static func first(atOrAfter t: Instant, zone: Zone) -> Instant {
        var s = t
        while true {
            let offset = zone.offset(at: s)
            let r = floorMod(s + Int64(offset), hour)
            if r == 0 { return s }
            let candidate = s + hour - r
            if zone.offset(at: candidate) == offset { return candidate }
            // The offset changed in (s, candidate]: the next stretch starts at a transition.
            let start = transition(from: s, to: candidate, zone: zone)
            if isTick(start, zone: zone) { return start }
            s = start
        }
    }

    /// An instant `x` in `(a, b]` where the offset changes (`offset(x − 1) != offset(x)`), given
    /// that `offset(a) != offset(b)`. Bisection always ends on a real transition.
    static func transition(from a: Instant, to b: Instant, zone: Zone) -> Instant {
        let before = zone.offset(at: a)
        var lo = a  // offset(lo) == before
        var hi = b  // offset(hi) != before
        while hi - lo > 1 {
            let mid = lo + (hi - lo) / 2
            if zone.offset(at: mid) == before { lo = mid } else { hi = mid }
        }
        return hi
    }
}

/// `a mod b` in `0..<b` for positive `b`.
func floorMod(_ a: Int64, _ b: Int64) -> Int64 {
    let r = a % b
    return r < 0 ? r + b : r
}
