import Glibc
import LinuxKit

/// Replacing the store's data files all at once (petprogress(7) §5, import), so that a crash at any
/// point leaves the old store or the new one, never a mix:
/// 1. the new files are written and fsynced in `.import-staged/`;
/// 2. the current data files are linked into `import-backup-<UTC timestamp>/` (kept, whatever follows);
/// 3. renaming `.import-staged` to `.import-ready` commits;
/// 4. `finish` puts the ready files in place and removes the old ones, then the ready directory.
/// `finish` runs again at every load, so a crash after the commit completes at the next start, and
/// one before it leaves the old store and a staged directory that is removed.
enum StoreSwap {
    static let staged = ".import-staged"
    static let ready = ".import-ready"
    static let done = ".import-done"
    private static let temporary = ".import-file.tmp"

    /// The store's data files: the state, its dated snapshots, history, and the record of the last
    /// recovery (it describes the store being replaced). (Set-aside copies, the lock and the swap's
    /// own directories are not data.)
    static func isDataFile(_ name: String) -> Bool {
        name == StateFile.name || name == RecoveryFile.name || (name.hasPrefix("history-") && name.hasSuffix(".jsonl"))
            || (name.hasPrefix("state-") && name.hasSuffix(".json"))
    }

    /// Makes `files` the store's data files; returns the directory the current ones were kept in.
    /// `linking` names files to take as they are (a hard link into the staged directory, so a year
    /// of history kept by a restore is not copied): the current store's, or a backup's.
    static func replace(
        in folder: DataFolder, with files: [(name: String, bytes: [UInt8])],
        linking: [(from: DataFolder, name: String)] = [], stamp: String
    ) throws(StoreError) -> String {
        let stage = try begin(in: folder)
        for file in linking {
            // Only regular files of ours are taken (a link would be taken as a link, not followed).
            try file.from.open(file.name).close()
            try file.from.link(file.name, file.name, into: stage)
        }
        for file in files {
            let out = try stage.open(file.name, [.writeOnly, .create, .exclusive])
            defer { out.close() }
            try io(out.writeAll(file.bytes))
            try io(out.fsync())
        }
        return try commit(stage, in: folder, stamp: stamp)
    }

    /// An empty staged directory, whatever an earlier swap left there.
    static func begin(in folder: DataFolder) throws(StoreError) -> DataFolder {
        try clear(staged, in: folder)
        try folder.makeDirectory(staged)
        return try folder.folder(staged)
    }

    /// Makes the staged files (each written and fsynced) the store's data files, in one durable
    /// step; returns the directory the current ones were kept in.
    static func commit(_ stage: DataFolder, in folder: DataFolder, stamp: String) throws(StoreError) -> String {
        try stage.fsync()
        let backup = try keepCurrent(in: folder, stamp: stamp)
        do {
            try folder.rename(staged, ready)
        } catch {
            // Not committed: the store is as it was, so nothing of this import stays behind.
            try? clear(backup.name, in: folder)
            try? clear(staged, in: folder)
            throw error
        }
        try folder.fsync()
        try finish(in: folder)
        pruneBackups(in: folder)
        return backup.path
    }

    /// Removes what a staging left (an import refused or failed after it began).
    static func abandon(in folder: DataFolder) { try? clear(staged, in: folder) }

    /// How many replaced data sets are kept aside (petprogress(7) §5).
    static let keptBackups = 3

    /// The replaced data sets kept aside, oldest first: `import-backup-<stamp>[-n]`, by stamp then n.
    static func backups(in folder: DataFolder) -> [String] {
        let prefix = "import-backup-"
        let names = ((try? folder.names()) ?? []).filter { $0.hasPrefix(prefix) }
        func order(_ name: String) -> (String, Int) {
            let rest = name.dropFirst(prefix.count)
            guard let dash = rest.firstIndex(of: "-"), let n = Int(rest[rest.index(after: dash)...]) else {
                return (String(rest), 0)
            }
            return (String(rest[..<dash]), n)
        }
        return names.sorted { order($0) < order($1) }
    }

    /// Removes all but the latest `keptBackups` sets. Best effort: the import has committed, and a
    /// set that cannot be removed (something of the user's inside it) stays.
    private static func pruneBackups(in folder: DataFolder) {
        for name in backups(in: folder).dropLast(keptBackups) { try? clear(name, in: folder) }
    }

    /// Completes a committed swap and removes what an uncommitted or finished one left.
    static func finish(in folder: DataFolder) throws(StoreError) {
        if folder.exists(ready) {
            let readyFolder = try folder.folder(ready)
            let incoming = try readyFolder.names().filter(isDataFile)
            for name in try folder.names() where isDataFile(name) && !incoming.contains(name) {
                try folder.unlink(name)
            }
            // The state file last: until it is in place, a start reads the old one.
            for name in incoming.sorted(by: { ($0 == StateFile.name ? 1 : 0, $0) < ($1 == StateFile.name ? 1 : 0, $1) })
            {
                try folder.unlink(temporary)
                try readyFolder.link(name, temporary, into: folder)
                try folder.rename(temporary, name)
            }
            try folder.fsync()
            try folder.rename(ready, done)
            try folder.fsync()
        }
        try clear(done, in: folder)
        try clear(staged, in: folder)
    }

    /// Links every current data file into a new `import-backup-<stamp>[-n]/`; returns its path.
    private static func keepCurrent(in folder: DataFolder, stamp: String) throws(StoreError) -> (
        name: String, path: String
    ) {
        let base = "import-backup-" + stamp
        // Past the highest set of the same stamp, never a gap pruning left: a reused name would sort
        // before the sets it is newer than, and the next prune would remove the latest data set.
        let sameStamp = backups(in: folder).filter { $0 == base || $0.hasPrefix(base + "-") }
        let highest = sameStamp.compactMap { $0 == base ? 0 : Int($0.dropFirst(base.count + 1)) }.max()
        let target = highest.map { "\(base)-\($0 + 1)" } ?? base
        try folder.makeDirectory(target)
        let backup = try folder.folder(target)
        for name in try folder.names() where isDataFile(name) {
            // Only regular files of ours are kept (a link would be kept as a link, not followed).
            try folder.open(name).close()
            try folder.link(name, name, into: backup)
        }
        try backup.fsync()
        try folder.fsync()
        return (target, backup.path)
    }

    /// Removes one of the swap's directories and the files in it; none there is no failure.
    private static func clear(_ name: String, in folder: DataFolder) throws(StoreError) {
        guard folder.exists(name) else { return }
        let sub = try folder.folder(name)
        for file in try sub.names() { try sub.unlink(file) }
        try folder.unlink(name, directory: true)
    }
}
