import PetCore

/// What `PetStore.load(now:)` found.
public struct Loaded: Sendable {
    public enum Start: Equatable, Sendable {
        /// The saved state: use it as is.
        case state(PetWorld)
        /// No usable state (first run, or the state file was set aside): start an empty
        /// `PetWorld` whose last closed day is this one, history's last day, so no history is
        /// ever dropped or recorded twice.
        case empty(lastClosedDay: DayKey?)
        /// The state file was set aside and no snapshot as recent as history loaded: the pet at
        /// history's last close (`lastClosedDay`), with `carried`'s settings, templates, rest days
        /// and counters when an older snapshot loaded, else defaults (petprogress(7) §5).
        case rebuilt(pet: PetState, lastClosedDay: DayKey, carried: PetWorld?)
    }

    public let start: Start
    /// One sentence each, for the log and `GetStatus`'s `problems` (a corrupt state file set
    /// aside, history repaired, unreadable history lines).
    public let problems: [String]
    /// Where an unparsable state file was moved (`state.json.corrupt-<timestamp>`), if it was.
    public let quarantinedTo: String?
    /// The schema the state file was migrated from, if it was older.
    public let migratedFrom: Int?
    /// The last recovery from a damaged state file (this start's, or an earlier one kept in
    /// `recovery.json`), nil when there never was one.
    public let recovery: Recovery?

    /// The world to start with: the start's, or a new one at `now` in `zone` for an empty or
    /// rebuilt start.
    public func world(now: Instant, zone: Zone) -> PetWorld {
        switch start {
        case .state(let world): return world
        case .empty(let lastClosedDay): return PetWorld(now: now, zone: zone, lastClosedDay: lastClosedDay)
        case .rebuilt(let pet, let lastClosedDay, let carried):
            var world = PetWorld(
                now: now, zone: zone, settings: carried?.settings ?? Settings(), lastClosedDay: lastClosedDay)
            world.openingPet = pet
            if let carried {
                world.templates = carried.templates
                world.restDays = carried.restDays.filter { $0 > lastClosedDay }
                world.mutations = carried.mutations
                world.serial = carried.serial
            }
            return world
        }
    }
}
