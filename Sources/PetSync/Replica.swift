import PetCore

/// One device's copy of the pet: every operation it has made or seen, in the total order, and the
/// fold of them. Merging is taking in operations: a set union, so order, repetition and delay of
/// deliveries cannot matter. An operation that lands before others already folded (it was made
/// offline, or its device's clock is behind) rewinds to the last checkpoint before it and folds
/// forward again: the rebase of TaskChampion's model, with the total order in place of its server.
public struct Replica: Sendable {
    /// The id this device writes under; a new one when it finds itself copied (`isCopy`).
    public private(set) var device: String
    public let zone: Zone
    public let stages: StageTable
    /// Every operation held, in the total order, each once.
    public internal(set) var log: [Operation] = []
    var ids: Set<OperationID> = []
    var clock = HybridClock.zero
    /// This device's last sequence number under its current id.
    public private(set) var seq: UInt64 = 0
    /// The fold of the whole log.
    public internal(set) var tip = SyncState()
    /// The fold of the operations before the cut (all of them folded into it, none left in `log`);
    /// a fresh state before the first compaction.
    var base = SyncState()
    /// The compaction's cut (docs/SYNC.md §9): the operations whose hybrid clock's wall second is
    /// earlier are folded into `base` and no longer in `log`; nil before the first compaction.
    public internal(set) var cut: Instant?
    /// How many operations `base` holds, and the wrapping sum of their digests; the same per
    /// device, and what the `forget`s among them say (for the snapshot).
    var baseCount = 0
    var baseDigest: UInt64 = 0
    var baseHeld: [String: Summary] = [:]
    var baseForgets: [String: Set<Summary>] = [:]
    /// Per device id, how many operations under it are held (compacted ones included) and the
    /// wrapping sum of their digests.
    var held: [String: Summary] = [:]
    /// What each `forget` held said of the id it forgets (compacted ones included).
    var forgets: [String: Set<Summary>] = [:]
    /// The ids this device wrote under before `adopt`: it writes a `forget` of each (`dueForgets`).
    public private(set) var retired: Set<String> = []
    /// Operations that arrived sorting before the cut, unheld: they cannot be applied in their
    /// place any more and change nothing (docs/SYNC.md §9). Empty unless a writer nobody heard
    /// from stayed offline past the margin (§9, rule 6).
    public private(set) var tooLate: [OperationID] = []
    /// The fold of the first `count` operations of `log`, every `checkpointEvery` of them.
    var checkpoints: [(count: Int, state: SyncState)] = []
    public static let checkpointEvery = 256
    /// Whether an operation under this device's id arrived that it does not hold: this store is a
    /// copy (a restored backup, a copied home directory) of one that went on elsewhere. It must
    /// write under a new id (`adopt`), or the two would keep writing one file.
    public private(set) var isCopy = false
    /// Operations folded again by rewinds (the merge's cost, for the figures).
    public private(set) var refolded = 0

    public init(device: String, zone: Zone, stages: StageTable = .builtIn) {
        self.device = device
        self.zone = zone
        self.stages = stages
    }

    /// What this device shows at `now`.
    public func state(at now: Instant) -> SyncState { tip.at(now, zone: zone, stages: stages) }

    /// Whether the daemon, running at `now`, must write a `wake`: nothing is folded yet, or the
    /// fold's open day has ended, so this run opens the next day while now is inside it (such a
    /// day is archived even when it stays empty). At most one a day per device.
    public func wakeDue(at now: Instant) -> Bool {
        guard let w = tip.world else { return true }
        return now >= w.openDay.end
    }

    /// Whether this replica holds the operation.
    public func holds(_ id: OperationID) -> Bool { ids.contains(id) }

    /// The operations made by `device`, in sequence order.
    public func operations(of device: String) -> [Operation] {
        log.filter { $0.device == device }.sorted { ($0.seq, $0.digest) < ($1.seq, $1.digest) }
    }

    /// The user's change at wall time `now`: checked by folding it onto everything this device
    /// has seen (where it will stay in this device's order, being the latest), then kept. A
    /// refused change writes no operation and changes nothing; so is every change while the fold is
    /// stopped at an operation of a newer version.
    @discardableResult
    public mutating func make(_ change: Change, now: Instant) throws(PetError) -> Operation {
        guard tip.blockedAt == nil else {
            throw PetError(
                .invalidArgument,
                "Another device runs a newer Pet Progress and wrote a change this one cannot read; update it here.")
        }
        var c = clock
        let op = Operation(device: device, seq: seq + 1, clock: c.stamp(now: now), at: now, change: change)
        var next = tip
        if let refusal = next.fold(op, zone: zone, stages: stages) { throw refusal }
        clock = c
        seq += 1
        log.append(op)
        ids.insert(op.id)
        note(op)
        tip = next
        checkpointIfDue()
        return op
    }

    /// Takes in operations from other devices (or its own, read back): new ones are merged in
    /// their place; the ones already held are ignored. Returns how many were new.
    @discardableResult
    public mutating func receive(_ ops: some Sequence<Operation>) -> Int {
        var fresh: [Operation] = []
        for op in ops where !ids.contains(op.id) {
            if let cut, op.clock.wall < cut {
                if !tooLate.contains(op.id) { tooLate.append(op.id) }
                continue
            }
            ids.insert(op.id)
            note(op)
            fresh.append(op)
            clock.observe(op.clock)
            if op.device == device { isCopy = true }
        }
        guard !fresh.isEmpty else { return 0 }
        fresh.sort(by: Operation.precedes)
        if let last = log.last, !Operation.precedes(last, fresh[0]) {
            merge(fresh)
        } else {
            for op in fresh {
                log.append(op)
                tip.fold(op, zone: zone, stages: stages)
                checkpointIfDue()
            }
        }
        return fresh.count
    }

    /// Writes under `newDevice` from now on (a fresh id, when this store turned out to be a copy).
    /// What was made under the old id stays as it is: operations never change.
    public mutating func adopt(device newDevice: String) {
        retired.insert(device)
        device = newDevice
        seq = log.lazy.filter { $0.device == newDevice }.map(\.seq).max() ?? 0
        isCopy = false
    }

    /// Merges operations of which at least the first lands before the log's end, then folds
    /// forward from the last checkpoint at or before that place.
    private mutating func merge(_ fresh: [Operation]) {
        let place = insertionIndex(fresh[0])
        var merged: [Operation] = []
        merged.reserveCapacity(log.count + fresh.count)
        merged += log[..<place]
        var i = place
        var j = 0
        while i < log.count || j < fresh.count {
            if j == fresh.count || (i < log.count && Operation.precedes(log[i], fresh[j])) {
                merged.append(log[i])
                i += 1
            } else {
                merged.append(fresh[j])
                j += 1
            }
        }
        log = merged
        checkpoints.removeAll { $0.count > place }
        var state = checkpoints.last?.state ?? base
        var from = checkpoints.last?.count ?? 0
        while from < log.count {
            state.fold(log[from], zone: zone, stages: stages)
            from += 1
            refolded += 1
            if from % Self.checkpointEvery == 0 { checkpoints.append((from, state)) }
        }
        tip = state
    }

    private func insertionIndex(_ op: Operation) -> Int {
        var lo = 0
        var hi = log.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if Operation.precedes(log[mid], op) { lo = mid + 1 } else { hi = mid }
        }
        return lo
    }

    /// Counts a newly held operation under its device, and what a `forget` says.
    private mutating func note(_ op: Operation) {
        held[op.device, default: Summary()].add(op)
        if case .forget(let d, let count, let digest) = op.change {
            forgets[d, default: []].insert(Summary(count: count, digest: digest))
        }
    }

    private mutating func checkpointIfDue() {
        if log.count % Self.checkpointEvery == 0 { checkpoints.append((log.count, tip)) }
    }
}
