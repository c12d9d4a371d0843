import PetCore

// Compaction (docs/SYNC.md §9): a cut that every device has passed, the fold up to it kept as a
// snapshot, the operations before it dropped from the log.
extension Replica {
    /// What a device folds from instead of the operations before `cut`: the same on every device
    /// that compacted at that cut (they held the same operations before it: `isStable`).
    public struct Snapshot: Hashable, Sendable {
        public let cut: Instant
        public let state: SyncState
        public let count: Int
        public let digest: UInt64
        /// The operations folded into `state`, so that one delivered again is known, not too late.
        public let ids: Set<OperationID>
        fileprivate let held: [String: Summary]
        fileprivate let forgets: [String: Set<Summary>]
    }

    /// How many operations, and the wrapping sum of their digests: a set's fingerprint.
    public struct Summary: Hashable, Sendable {
        public var count = 0
        public var digest: UInt64 = 0

        mutating func add(_ op: Operation) {
            count += 1
            digest &+= op.digest
        }
    }

    /// Every device id that wrote an operation held (compacted ones included).
    public var devices: Set<String> { Set(held.keys) }

    /// Whether `device` is no longer waited for: a `forget` of it held counts exactly the
    /// operations under it held here (docs/SYNC.md §9). One that no `forget` counted shows another
    /// writer still using the id.
    public func isForgotten(_ device: String) -> Bool { forgets[device]?.contains(held[device] ?? Summary()) ?? false }

    /// The `forget` this device writes of `device` (its old id, after `adopt`; or one the user
    /// forgets): what it holds under that id.
    public func forgetting(_ device: String) -> Change {
        let s = held[device] ?? Summary()
        return .forget(device: device, count: s.count, digest: s.digest)
    }

    /// A device set up from another's snapshot: it holds the operations before the cut as folded,
    /// and takes in the ones after it from the folder's logs.
    public init(device: String, zone: Zone, stages: StageTable = .builtIn, snapshot: Snapshot) {
        self.init(device: device, zone: zone, stages: stages)
        base = snapshot.state
        tip = snapshot.state
        cut = snapshot.cut
        baseCount = snapshot.count
        baseDigest = snapshot.digest
        ids = snapshot.ids
        held = snapshot.held
        forgets = snapshot.forgets
        baseHeld = snapshot.held
        baseForgets = snapshot.forgets
        clock.observe(HybridClock(wall: snapshot.cut))
    }

    /// This device's snapshot at its cut; nil before its first compaction.
    public var snapshot: Snapshot? {
        cut.map {
            Snapshot(
                cut: $0, state: base, count: baseCount, digest: baseDigest,
                ids: ids.subtracting(log.map(\.id)), held: baseHeld, forgets: baseForgets)
        }
    }

    /// How many operations held sort before `cut`, and the wrapping sum of their digests: the
    /// content of a `seen` (nil for a cut before this device's own: it no longer knows).
    public func summary(before cut: Instant) -> (count: Int, digest: UInt64)? {
        if let mine = self.cut, cut < mine { return nil }
        var count = baseCount
        var digest = baseDigest
        for op in log {
            guard op.clock.wall < cut else { break }
            count += 1
            digest &+= op.digest
        }
        return (count, digest)
    }

    /// The `seen` this device writes about a proposed cut (with its daily `wake`).
    public func report(cut: Instant) -> Change? {
        summary(before: cut).map { .seen(cut: cut, count: $0.count, digest: $0.digest) }
    }

    /// The `seen` due about a proposed cut: none when this device already wrote one saying what it
    /// holds now from before the cut, so a device writes one per cut, and again only when what it
    /// holds from before the cut has grown (docs/SYNC.md §9).
    public func dueReport(cut: Instant) -> Change? {
        guard let report = report(cut: cut) else { return nil }
        return log.contains { $0.device == device && $0.change == report } ? nil : report
    }

    /// The `forget`s due for the ids this device wrote under before: one of each whose operations
    /// held no `forget` counts exactly — the first, and again whenever more under it arrived (from
    /// the other half of a copied home directory), until one counts them all.
    public func dueForgets() -> [Change] {
        retired.sorted().filter { !isForgotten($0) }.map(forgetting)
    }

    /// Whether nothing can arrive any more from before `cut`: every device that wrote an operation
    /// held, except the forgotten ones (`isForgotten`), said, in a `seen` stamped at or after the
    /// cut, that it holds exactly what this device holds from before it. Its own operations from before the cut were made before that `seen`
    /// (a device's clock only goes forward), so each device's own are in the set, and the set is
    /// whole. Only a device that no operation held names — one set up and gone offline before any
    /// of its operations arrived anywhere — can still send older ones: `tooLate` lists them.
    public func isStable(cut: Instant) -> Bool {
        if let mine = self.cut, cut <= mine { return false }
        guard let (count, digest) = summary(before: cut), !held.isEmpty else { return false }
        return held.keys.allSatisfy { d in
            isForgotten(d)
                || log.contains { op in
                    guard op.device == d, op.clock.wall >= cut, case .seen(cut, count, digest) = op.change else {
                        return false
                    }
                    return true
                }
        }
    }

    /// Folds the operations before `cut` into the snapshot and drops them from the log, when the
    /// cut is stable. The state does not change: they are the fold's prefix. Returns whether it did.
    @discardableResult
    public mutating func compact(cut: Instant) -> Bool {
        guard isStable(cut: cut) else { return false }
        let n = log.firstIndex { $0.clock.wall >= cut } ?? log.count
        let start = checkpoints.last { $0.count <= n }
        var state = start?.state ?? base
        var digest = baseDigest
        for op in log[(start?.count ?? 0)..<n] { state.fold(op, zone: zone, stages: stages) }
        for op in log[..<n] {
            digest &+= op.digest
            baseHeld[op.device, default: Summary()].add(op)
            if case .forget(let d, let c, let h) = op.change {
                baseForgets[d, default: []].insert(Summary(count: c, digest: h))
            }
        }
        base = state
        baseCount += n
        baseDigest = digest
        log.removeFirst(n)
        checkpoints = []
        self.cut = cut
        return true
    }
}
