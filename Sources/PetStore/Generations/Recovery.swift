import PetCore

/// What a start did because `state.json` could not be used (petprogress(7) §5): where the pet came
/// from, when, and whether the user has acknowledged it. Kept in `recovery.json` until the next
/// recovery, so an unacknowledged notice outlives a restart and an acknowledged one stays quiet.
public struct Recovery: Hashable, Sendable {
    public enum Source: String, Hashable, Sendable {
        /// The newest snapshot that loaded.
        case snapshot
        /// No snapshot loaded: the pet at history's last close, default settings.
        case history
        /// Nothing to start from: a new pet (history, if any, is kept).
        case empty
    }

    public var source: Source
    /// The closeout the start came from: the snapshot's day, or history's last day; nil for `empty`.
    public var day: DayKey?
    /// When it happened (Unix seconds, the daemon's clock).
    public var at: Instant
    /// Set by `AcknowledgeProblems`: clients stop showing the notice.
    public var acknowledged: Bool

    public init(source: Source, day: DayKey?, at: Instant, acknowledged: Bool = false) {
        self.source = source
        self.day = day
        self.at = at
        self.acknowledged = acknowledged
    }

    /// The one line a client shows until it is acknowledged.
    public var sentence: String {
        switch (source, day) {
        case (.snapshot, let day?):
            "The state file could not be used; Pet Progress restored the state saved at the closeout of \(day)."
        case (.history, let day?):
            "The state file could not be used; Pet Progress rebuilt the pet from history as it was at the closeout of \(day), with default settings."
        default:
            "The state file could not be used and nothing could be recovered; Pet Progress started over (history is kept)."
        }
    }

    /// What was lost, as a phrase: `changes since the closeout of 2026-03-04`.
    public var lost: String {
        switch (source, day) {
        case (.snapshot, let day?): "changes since the closeout of \(day)"
        case (.history, let day?):
            "changes since the closeout of \(day), the settings, repeating tasks, rest days and tasks planned ahead"
        default: "the pet, the settings, repeating tasks, rest days and tasks planned ahead"
        }
    }
}
