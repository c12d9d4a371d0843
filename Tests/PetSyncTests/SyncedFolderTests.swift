import Foundation
import PetCore
import PetSync
import Testing

/// The model over a synced folder of real files (docs/SYNC.md §1): three machines, each with its
/// copy of the folder in a real temporary directory, copied by `SyncthingSimulator` — delayed and
/// reordered deliveries, temporary files renamed into place, partial files, a machine offline for
/// a week, a machine set up as a copy of another's home directory while offline (two writers of one
/// log: conflict copies), and one whose data directory is restored from a backup. At the end every machine holds every operation ever
/// made, shows the same state byte for byte, and no conflict copy is left behind.
@Suite struct SyncedFolderTests {
    static let runs = SyncRun.isFull ? 4 : 2
    static let days = SyncRun.isFull ? 28 : 12

    @Test func threeMachinesConvergeAndLoseNothing() throws {
        for seed in 0..<UInt64(Self.runs) {
            try Self.run(seed: seed * 7919 + 1, days: Self.days)
        }
    }

    static func run(seed: UInt64, days: Int) throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent(
            "petsync-\(getpid())-\(seed)", isDirectory: true)
        try? FileManager.default.removeItem(at: root)
        defer { try? FileManager.default.removeItem(at: root) }
        var rng = SplitMix64(seed: seed)
        let sync = try SyncthingSimulator(root: root, machines: ["laptop", "desktop", "tablet"], seed: seed ^ 0xfeed)
        let skew: [String: Instant] = ["laptop": 0, "desktop": 420, "tablet": -540]
        var machines: [String: Machine] = [
            "laptop": Machine(replica: Replica(device: "laptop", zone: berlin), dir: sync.dir("laptop")),
            "desktop": Machine(replica: Replica(device: "desktop", zone: berlin), dir: sync.dir("desktop")),
        ]
        var made: [OperationID: PetSync.Operation] = [:]
        var backup: Machine?
        let start = at("2026-03-23T06:00:00Z")
        var t = start
        var renames = 0
        var agreed: [(cut: Instant, count: Int, digest: UInt64)] = []
        while t < start + Instant(days) * dayLength {
            t += Instant(5 + rng.below(100)) * minute
            let day = Int((t - start) / dayLength)
            // Day 1: the tablet is set up by copying the laptop's home: same pet store, same id.
            if day >= 1, machines["tablet"] == nil {
                var copy = machines["laptop"]!
                copy.dir = sync.dir("tablet")
                for name in try FileManager.default.contentsOfDirectory(atPath: sync.dir("laptop").path)
                where SyncFolder.holdsOperations(name) {
                    try? FileManager.default.removeItem(at: sync.dir("tablet").appendingPathComponent(name))
                    try FileManager.default.copyItem(
                        at: sync.dir("laptop").appendingPathComponent(name),
                        to: sync.dir("tablet").appendingPathComponent(name))
                }
                machines["tablet"] = copy
                // Set up away from the network: it and the laptop both append to ops-laptop.log.
                sync.offline.insert("tablet")
            }
            // Days 1–9: the tablet is offline (and used), a week and more.
            if day == 9, sync.offline.contains("tablet") {
                sync.offline.remove("tablet")
                sync.reconnect("tablet", now: t)
            }
            try sync.deliver(now: t)
            try sync.scan(now: t)
            // Day 5 a backup of the desktop's data directory; day 7 it is restored: its store
            // forgets two days, and its id and sequence numbers are used again.
            if day == 5, backup == nil { backup = machines["desktop"]! }
            if day == 7, let b = backup, machines["desktop"]!.replica.log.count > b.replica.log.count {
                machines["desktop"] = b
                backup = nil
            }
            // One machine: reads the folder, the user makes a change, it writes its log.
            let name = rng.pick(machines.keys.sorted())!
            var m = machines[name]!
            let now = t + skew[name]!
            try m.read()
            if m.replica.isCopy {
                m.replica.adopt(device: "\(name)-\(rng.below(1 << 30))")
                renames += 1
            }
            for op in m.upkeep(now: now) { made[op.id] = op }
            let change = randomChange(m.replica.state(at: now), now: now, zone: berlin, rng: &rng)
            if let op = try? m.replica.make(change, now: now) { made[op.id] = op }
            try m.publish()
            m.compact(now: now, agreed: &agreed)
            machines[name] = m
        }
        // Everyone online; the synchroniser and the machines run until nothing changes.
        sync.offline = []
        for name in machines.keys.sorted() { sync.reconnect(name, now: t) }
        for round in 0..<200 {
            t += 3600
            try sync.deliver(now: t)
            try sync.scan(now: t)
            var wrote = false
            for name in machines.keys.sorted() {
                var m = machines[name]!
                try m.read()
                if m.replica.isCopy { m.replica.adopt(device: "\(name)-r\(round)") }
                for op in m.upkeep(now: t + skew[name]!) { made[op.id] = op }
                wrote = try m.publish() || wrote
                m.compact(now: t + skew[name]!, agreed: &agreed)
                machines[name] = m
            }
            try sync.scan(now: t)
            if sync.idle, !wrote, round > 2 { break }
        }
        #expect(sync.idle, "seed \(seed): the synchroniser settled")
        #expect(renames >= 1, "seed \(seed): the copied home was noticed")
        #expect(sync.conflicts >= 1, "seed \(seed): conflict copies were made")
        #expect(sync.partials + sync.halfWrittenTemps >= 1, "seed \(seed): partial files were seen")
        var forgets = 0
        for op in made.values { if case .forget = op.change { forgets += 1 } }
        let cuts = Set(agreed.map(\.cut)).count
        print(
            "synced folder: seed \(seed), \(days) days: \(made.count) operations, \(sync.deliveries) deliveries, "
                + "\(sync.conflicts) conflicts, \(sync.partials) partial files, \(sync.halfWrittenTemps) half-written "
                + "temporary files, \(renames) new device ids, \(forgets) forgets, \(cuts) stable cuts, "
                + "\(agreed.count) compactions, "
                + "up to \(agreed.map(\.count).max() ?? 0) operations before a cut")
        // Compaction: some cut was stable despite the copied home and the restored backup (their
        // old ids forgotten), and every set found stable was every operation made before its cut.
        #expect(agreed.contains { $0.count > 0 }, "seed \(seed): no cut after an operation was ever stable")
        for a in agreed {
            let before = made.values.filter { $0.clock.wall < a.cut }
            #expect(
                before.count == a.count && before.reduce(0) { $0 &+ $1.digest } == a.digest,
                "seed \(seed): a cut was taken with an operation still to come")
        }
        let end = t + dayLength
        let reference = machines["laptop"]!.replica.state(at: end).canonicalBytes
        for (name, m) in machines.sorted(by: { $0.key < $1.key }) {
            let lost = made.keys.filter { !m.replica.holds($0) }
            #expect(lost.isEmpty, "seed \(seed): \(name) lacks \(lost.count) of \(made.count) operations")
            #expect(m.replica.tooLate.isEmpty, "seed \(seed): \(name) refused \(m.replica.tooLate.count) as too late")
            if let snapshot = m.replica.snapshot {
                var fresh = Replica(device: "new", zone: berlin, snapshot: snapshot)
                fresh.receive(made.values)
                #expect(fresh.state(at: end).canonicalBytes == reference, "seed \(seed): from \(name)'s snapshot")
                #expect(fresh.devices == m.replica.devices)
                #expect(fresh.devices.filter(fresh.isForgotten) == m.replica.devices.filter(m.replica.isForgotten))
                #expect(fresh.report(cut: end) == m.replica.report(cut: end), "the same count and digest")
            }
            #expect(m.replica.state(at: end).canonicalBytes == reference, "seed \(seed): \(name) diverged")
            let left = try FileManager.default.contentsOfDirectory(atPath: m.dir.path).filter {
                SyncFolder.isConflictCopy($0) || $0.hasPrefix(".syncthing.")
            }
            #expect(left.isEmpty, "seed \(seed): \(name) keeps \(left)")
        }
        // A machine that starts from the folder alone (a new one) folds the same.
        var fresh = Machine(replica: Replica(device: "new", zone: berlin), dir: sync.dir("laptop"))
        try fresh.read()
        #expect(fresh.replica.log.count == made.count)
        #expect(fresh.replica.state(at: end).canonicalBytes == reference)
    }
}

/// What the daemon would do with the folder (docs/SYNC.md §1): read every log and conflict copy,
/// append its own operations — and any it holds that no log has (rescued from a conflict copy, or
/// from a log that went back) — to its own log, then delete the conflict copies it has read.
struct Machine {
    var replica: Replica
    var dir: URL
    /// The operations in the folder's logs at the last read (conflict copies not counted).
    var inLogs: Set<OperationID> = []
    var conflictCopies: [String] = []
    /// What this machine last wrote as its log, and the operations in it.
    var written: [UInt8] = []
    var published: Set<OperationID> = []
    var writtenName = ""

    /// Compaction's part of a run of the daemon (docs/SYNC.md §9): the `forget`s of its old ids
    /// and the `seen` of the cut proposed now. The cut: every second UTC midnight at least ten
    /// days back, longer than the copied home directory stays offline (what a device nobody has
    /// heard from wrote before the cut would come too late: docs/SYNC.md §9, rule 6).
    mutating func upkeep(now: Instant) -> [PetSync.Operation] {
        var ops: [PetSync.Operation] = []
        for change in replica.dueForgets() + [replica.dueReport(cut: Self.cut(now))].compactMap({ $0 }) {
            if let op = try? replica.make(change, now: now) { ops.append(op) }
        }
        return ops
    }

    static func cut(_ now: Instant) -> Instant { (now - 10 * dayLength) / (2 * dayLength) * (2 * dayLength) }

    /// Compacts when the cut proposed now is stable, after publishing (so that what it re-publishes
    /// from a conflict copy is in its log first), noting the cut's fingerprint in `agreed`.
    mutating func compact(now: Instant, agreed: inout [(cut: Instant, count: Int, digest: UInt64)]) {
        let cut = Self.cut(now)
        guard replica.isStable(cut: cut), let s = replica.summary(before: cut) else { return }
        agreed.append((cut, s.count, s.digest))
        replica.compact(cut: cut)
    }

    mutating func read() throws {
        inLogs = []
        conflictCopies = []
        for name in try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted()
        where SyncFolder.holdsOperations(name) {
            let bytes = try [UInt8](Data(contentsOf: dir.appendingPathComponent(name)))
            let ops = SyncFolder.read(bytes).operations
            replica.receive(ops)
            if SyncFolder.isConflictCopy(name) {
                conflictCopies.append(name)
            } else {
                inLogs.formUnion(ops.map(\.id))
            }
        }
    }

    /// Appends what is new to this machine's log (rewriting it whole, atomically, when the file is
    /// not what it last wrote); then deletes the conflict copies read. Returns whether it wrote.
    @discardableResult
    mutating func publish() throws -> Bool {
        let name = SyncFolder.logName(device: replica.device)
        if name != writtenName {
            writtenName = name
            written = []
            published = []
        }
        let fresh = replica.log.filter {
            !published.contains($0.id) && ($0.device == replica.device || !inLogs.contains($0.id))
        }
        let url = dir.appendingPathComponent(name)
        let onDisk = (try? [UInt8](Data(contentsOf: url))) ?? []
        var wrote = false
        if onDisk != written {
            // Someone else's version of this file arrived (a copy of this machine wrote it).
            let mine = SyncFolder.read(onDisk).operations.filter { !published.contains($0.id) }
            replica.receive(mine)
            let all = published.isEmpty ? [] : SyncFolder.read(written).operations
            let bytes = Array((all + fresh).map(\.line).joined().utf8)
            let temp = dir.appendingPathComponent(".petprogress-\(name).tmp")
            try Data(bytes).write(to: temp)
            guard rename(temp.path, url.path) == 0 else { throw CocoaError(.fileWriteUnknown) }
            written = bytes
            wrote = true
        } else if !fresh.isEmpty {
            let bytes = Array(fresh.map(\.line).joined().utf8)
            if FileManager.default.fileExists(atPath: url.path) {
                let handle = try FileHandle(forWritingTo: url)
                try handle.seekToEnd()
                try handle.write(contentsOf: bytes)
                try handle.close()
            } else {
                try Data(bytes).write(to: url)
            }
            written += bytes
            wrote = true
        }
        published.formUnion(fresh.map(\.id))
        inLogs.formUnion(fresh.map(\.id))
        for copy in conflictCopies {
            try? FileManager.default.removeItem(at: dir.appendingPathComponent(copy))
            wrote = true
        }
        conflictCopies = []
        return wrote
    }
}
