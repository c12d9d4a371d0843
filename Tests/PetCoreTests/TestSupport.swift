import PetCore

/// `2026-03-02T04:00:00Z` (or with a `+HH:MM`/`-HH:MM` offset) → Unix seconds. Test input only.
func at(_ text: String) -> Instant {
    let date = CivilDate(parsing: String(text.prefix(10)))!
    let clock = text.dropFirst(11)
    let h = Int(clock.prefix(2))!
    let m = Int(clock.dropFirst(3).prefix(2))!
    let s = Int(clock.dropFirst(6).prefix(2))!
    var offset = 0
    let tail = clock.dropFirst(8)
    if tail.first == "+" || tail.first == "-" {
        let sign = tail.first == "-" ? -1 : 1
        offset = sign * (Int(tail.dropFirst().prefix(2))! * 3600 + Int(tail.dropFirst(4).prefix(2))! * 60)
    }
    return Int64(date.daysSinceEpoch) * 86_400 + Int64(h * 3600 + m * 60 + s - offset)
}

func zone(_ id: String) -> Zone { SystemZones.zone(id)! }
func wall(_ text: String) -> WallTime { WallTime(parsing: text)! }
func key(_ text: String) -> DayKey { CivilDate(parsing: text)! }
func day(_ k: String, _ start: String, _ end: String) -> Day { Day(key: key(k), start: at(start), end: at(end)) }

let hour: Instant = 3600
