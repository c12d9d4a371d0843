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
    }

    public let start: Start
    /// One sentence each, for the log and `GetStatus`'s `problems` (a corrupt state file set
    /// aside, history repaired, unreadable history lines).
    public let problems: [String]
    /// Where an unparsable state file was moved (`state.json.corrupt-<timestamp>`), if it was.
    public let quarantinedTo: String?
    /// The schema the state file was migrated from, if it was older.
    public let migratedFrom: Int?
}
