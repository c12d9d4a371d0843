import PetCore

/// What one device's widget shows of the pet. The hourly rule (petprogress(7) §3.2) is about one
/// screen: a snapshot never goes backwards there, even when this device's clock steps back behind
/// a tick it already showed. The fold's snapshot is the same on every device; the one shown is the
/// newer of it and the last one this device showed, kept in its private store, never synced.
public struct Display: Hashable, Sendable {
    public private(set) var shown: VisibleSnapshot?

    public init() {}

    /// The snapshot to show with the state `s` (which the fold computed at this device's now).
    public mutating func show(_ s: SyncState) -> VisibleSnapshot? {
        // Only a later tick replaces it: the pet shown for a tick stays what it was at that tick,
        // even when this device's clock stepped back and completions were folded behind it.
        if let new = s.world?.snapshot, shown.map({ new.tick > $0.tick }) ?? true { shown = new }
        return shown
    }
}
