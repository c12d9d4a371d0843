import Foundation
import PetCore
import PetSync

/// A file synchroniser that behaves like Syncthing, over real directories (one per machine, each
/// that machine's copy of the synced folder): it scans each copy for changed files, gives every
/// change a version vector, and delivers it to the other machines after a delay, in any order —
/// through a temporary file renamed into place (`.syncthing.<name>.tmp`, left half-written for a
/// while now and then), or, as other tools do, written in place a piece at a time (a partial file
/// readers see). A change that meets a concurrent change of the same file becomes a conflict
/// copy (`<name>.sync-conflict-<date>-<time>-<machine>.<ext>`) beside the newer one, and spreads
/// like any file. A machine offline gets nothing and sends nothing until it comes back.
final class SyncthingSimulator {
    struct Version {
        var vector: [String: Int]
        /// nil: deleted.
        var bytes: [UInt8]?
        var mtime: Instant
    }

    struct Delivery {
        var due: Instant
        var to: String
        var name: String
        var version: Version
        /// 0: first attempt; 1: the rest of a partial or half-written transfer.
        var stage: Int
    }

    let root: URL
    let machines: [String]
    var rng: SplitMix64
    /// What each machine's database holds for each file.
    var known: [String: [String: Version]] = [:]
    var queue: [Delivery] = []
    var offline: Set<String> = []
    /// Files being written in place on a machine (not scanned as its own change until done).
    var inTransit: [String: Set<String>] = [:]
    private(set) var conflicts = 0
    private(set) var partials = 0
    private(set) var halfWrittenTemps = 0
    private(set) var deliveries = 0

    init(root: URL, machines: [String], seed: UInt64) throws {
        self.root = root
        self.machines = machines
        self.rng = SplitMix64(seed: seed)
        for m in machines {
            try FileManager.default.createDirectory(at: dir(m), withIntermediateDirectories: true)
            known[m] = [:]
            inTransit[m] = []
        }
    }

    func dir(_ machine: String) -> URL { root.appendingPathComponent(machine, isDirectory: true) }

    /// Notices every local change on the online machines and announces it.
    func scan(now: Instant) throws {
        for m in machines where !offline.contains(m) { try scan(m, now: now) }
    }

    func scan(_ m: String, now: Instant) throws {
        let names = try FileManager.default.contentsOfDirectory(atPath: dir(m).path)
            .filter { !$0.hasPrefix(".syncthing.") }
        for name in names { try scan(m, name, now: now) }
        for (name, v) in known[m] ?? [:] where v.bytes != nil && !names.contains(name) {
            changed(m, name, nil, now: now)
        }
    }

    /// One file: a change on disk that the database does not know is a local change.
    private func scan(_ m: String, _ name: String, now: Instant) throws {
        guard !(inTransit[m]?.contains(name) ?? false) else { return }
        let url = dir(m).appendingPathComponent(name)
        guard FileManager.default.fileExists(atPath: url.path) else { return }
        let bytes = try [UInt8](Data(contentsOf: url))
        if known[m]?[name]?.bytes != bytes { changed(m, name, bytes, now: now) }
    }

    private func changed(_ m: String, _ name: String, _ bytes: [UInt8]?, now: Instant) {
        var v = known[m]?[name] ?? Version(vector: [:], bytes: nil, mtime: now)
        v.vector[m, default: 0] += 1
        v.bytes = bytes
        v.mtime = now
        known[m]![name] = v
        announce(from: m, name, v, now: now)
    }

    private func announce(from m: String, _ name: String, _ v: Version, now: Instant) {
        for other in machines where other != m {
            // Mostly seconds to minutes; now and then hours (a slow link, a sleeping machine).
            let delay = rng.chance(0.1) ? Instant(rng.below(12 * 3600)) : Instant(rng.below(600))
            queue.append(Delivery(due: now + delay, to: other, name: name, version: v, stage: 0))
        }
    }

    /// A machine back from offline (or restored) exchanges indexes: each online machine offers
    /// it what it holds, and it offers what it holds.
    func reconnect(_ m: String, now: Instant) {
        for other in machines where other != m && !offline.contains(other) {
            for (name, v) in known[other] ?? [:] {
                queue.append(Delivery(due: now + Instant(rng.below(300)), to: m, name: name, version: v, stage: 0))
            }
        }
        for (name, v) in known[m] ?? [:] { announce(from: m, name, v, now: now) }
    }

    /// Delivers what is due, in random order, to the online machines.
    func deliver(now: Instant) throws {
        var due = queue.filter { $0.due <= now && !offline.contains($0.to) }
        queue.removeAll { $0.due <= now && !offline.contains($0.to) }
        rng.shuffle(&due)
        for d in due { try deliver(d, now: now) }
    }

    /// Everything still queued, delivered whatever its time (the end of a run).
    var idle: Bool { queue.isEmpty }

    private func deliver(_ d: Delivery, now: Instant) throws {
        let target = dir(d.to).appendingPathComponent(d.name)
        let temp = dir(d.to).appendingPathComponent(".syncthing.\(d.name).tmp")
        // As Syncthing does before it replaces a file: a change on disk not yet scanned is a local
        // change, so that it meets the incoming one as a conflict instead of being overwritten.
        if d.stage == 0 { try scan(d.to, d.name, now: now) }
        if d.stage == 0, let bytes = d.version.bytes, bytes.count > 1 {
            let cut = 1 + rng.below(bytes.count - 1)
            if rng.chance(0.1) {
                // Another tool's copy in place: readers see a partial file until it is finished.
                try Data(bytes[..<cut]).write(to: target)
                inTransit[d.to]!.insert(d.name)
                partials += 1
                return requeue(d, now: now)
            }
            if rng.chance(0.15) {
                try Data(bytes[..<cut]).write(to: temp)
                halfWrittenTemps += 1
                return requeue(d, now: now)
            }
        }
        inTransit[d.to]!.remove(d.name)
        let current = known[d.to]?[d.name]
        deliveries += 1
        guard let c = current else { return try install(d, at: target, temp: temp) }
        if dominates(d.version.vector, c.vector) { return try install(d, at: target, temp: temp) }
        if dominates(c.vector, d.version.vector) {
            // Older than what this machine has: nothing to do (a partial write in place is undone).
            if let bytes = c.bytes { try Data(bytes).write(to: target) }
            try? FileManager.default.removeItem(at: temp)
            return
        }
        // Concurrent with the same contents (two machines settled the same conflict): nothing to do.
        if c.bytes == d.version.bytes {
            known[d.to]![d.name] = Version(
                vector: merged(c.vector, d.version.vector), bytes: c.bytes, mtime: max(c.mtime, d.version.mtime))
            try? FileManager.default.removeItem(at: temp)
            return
        }
        // Concurrent: the newer modification keeps the name, the other becomes a conflict copy;
        // a deletion never beats a modification.
        conflicts += 1
        let incomingWins =
            c.bytes == nil || (d.version.bytes != nil && (d.version.mtime, d.to) > (c.mtime, d.name))
        let loser = incomingWins ? c : d.version
        var winner = incomingWins ? d.version : c
        winner.vector = merged(c.vector, d.version.vector)
        winner.vector[d.to, default: 0] += 1
        if let bytes = loser.bytes {
            try Data(bytes).write(to: dir(d.to).appendingPathComponent(conflictName(d.name, loser.mtime)))
        }
        if let bytes = winner.bytes {
            try Data(bytes).write(to: target)
        } else {
            try? FileManager.default.removeItem(at: target)
        }
        try? FileManager.default.removeItem(at: temp)
        known[d.to]![d.name] = winner
        announce(from: d.to, d.name, winner, now: now)
    }

    private func requeue(_ d: Delivery, now: Instant) {
        var rest = d
        rest.stage = 1
        rest.due = now + Instant(rng.below(1800))
        queue.append(rest)
    }

    /// Writes the delivered version: the whole file to the temporary name, renamed into place.
    private func install(_ d: Delivery, at target: URL, temp: URL) throws {
        if let bytes = d.version.bytes {
            try Data(bytes).write(to: temp)
            guard rename(temp.path, target.path) == 0 else { throw CocoaError(.fileWriteUnknown) }
        } else {
            try? FileManager.default.removeItem(at: target)
            try? FileManager.default.removeItem(at: temp)
        }
        known[d.to]![d.name] = d.version
    }

    private func dominates(_ a: [String: Int], _ b: [String: Int]) -> Bool {
        b.allSatisfy { a[$0.key, default: 0] >= $0.value }
    }

    private func merged(_ a: [String: Int], _ b: [String: Int]) -> [String: Int] {
        a.merging(b) { max($0, $1) }
    }

    /// `ops-x.log` → `ops-x.sync-conflict-20260305-101500-MACHINE.log`, as Syncthing names it.
    private func conflictName(_ name: String, _ mtime: Instant) -> String {
        let date = CivilDate(daysSinceEpoch: Int(mtime / 86_400))
        let s = Int(mtime % 86_400)
        let time = [s / 3600, s / 60 % 60, s % 60].map { $0 < 10 ? "0\($0)" : "\($0)" }.joined()
        let base = String(name.dropLast(4))
        var candidate = ""
        repeat {
            candidate = "\(base).sync-conflict-\(date.digits)-\(time)-\(rng.below(1 << 30)).log"
        } while known.values.contains(where: { $0[candidate] != nil })
        return candidate
    }
}
