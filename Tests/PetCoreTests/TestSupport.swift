import PetCore
import TestSupport

/// `2026-03-02T04:00:00Z` (or with a `+HH:MM`/`-HH:MM` offset) → Unix seconds: the harness's
/// `unix`, under the short name these tables use. Test input only.
func at(_ text: String) -> Instant { unix(text) }

func zone(_ id: String) -> Zone { SystemZones.zone(id)! }
func wall(_ text: String) -> WallTime { WallTime(parsing: text)! }
func key(_ text: String) -> DayKey { CivilDate(parsing: text)! }
func day(_ k: String, _ start: String, _ end: String) -> Day { Day(key: key(k), start: at(start), end: at(end)) }

let hour: Instant = 3600
