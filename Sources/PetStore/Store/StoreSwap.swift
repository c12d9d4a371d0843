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
    static func replace(in directory: String, with files: [(name: String, bytes: [UInt8])], stamp: String)
        throws(StoreError) -> String
    {
        let stage = Paths.join(directory, staged)
        try clear(stage)
        try io(FileSystem.makeDirectory(stage))
        for file in files {
            do throws(SystemCallError) {
                let out = try FileDescriptor.open(Paths.join(stage, file.name), [.writeOnly, .create, .exclusive])
                defer { out.close() }
                try out.writeAll(file.bytes)
                try out.fsync()
            } catch {
                throw StoreError(error)
            }
        }
        try Paths.fsyncDirectory(stage)
        let backup = try keepCurrent(in: directory, stamp: stamp)
        try Paths.rename(stage, Paths.join(directory, ready))
        try Paths.fsyncDirectory(directory)
        try finish(in: directory)
        return backup
    }

    /// Completes a committed swap and removes what an uncommitted or finished one left.
    static func finish(in directory: String) throws(StoreError) {
        let readyPath = Paths.join(directory, ready)
        if Paths.exists(readyPath) {
            let incoming = try names(in: readyPath).filter(isDataFile)
            for name in try names(in: directory) where isDataFile(name) && !incoming.contains(name) {
                try Paths.unlink(Paths.join(directory, name))
            }
            // The state file last: until it is in place, a start reads the old one.
            for name in incoming.sorted(by: { ($0 == StateFile.name ? 1 : 0, $0) < ($1 == StateFile.name ? 1 : 0, $1) })
            {
                let scratch = Paths.join(directory, temporary)
                try Paths.unlink(scratch)
                try io(FileSystem.link(Paths.join(readyPath, name), to: scratch))
                try Paths.rename(scratch, Paths.join(directory, name))
            }
            try Paths.fsyncDirectory(directory)
            try Paths.rename(readyPath, Paths.join(directory, done))
            try Paths.fsyncDirectory(directory)
        }
        try clear(Paths.join(directory, done))
        try clear(Paths.join(directory, staged))
    }

    /// Links every current data file into a new `import-backup-<stamp>[-n]/`; returns its path.
    private static func keepCurrent(in directory: String, stamp: String) throws(StoreError) -> String {
        let base = Paths.join(directory, "import-backup-" + stamp)
        var target = base
        var n = 1
        while Paths.exists(target) {
            target = "\(base)-\(n)"
            n += 1
        }
        try io(FileSystem.makeDirectory(target))
        for name in try names(in: directory) where isDataFile(name) {
            try io(FileSystem.link(Paths.join(directory, name), to: Paths.join(target, name)))
        }
        try Paths.fsyncDirectory(target)
        try Paths.fsyncDirectory(directory)
        return target
    }

    /// Removes one of the swap's directories and the files in it; none there is no failure.
    private static func clear(_ path: String) throws(StoreError) {
        guard Paths.exists(path) else { return }
        for name in try names(in: path) { try Paths.unlink(Paths.join(path, name)) }
        try io(FileSystem.removeDirectory(path))
    }

    /// The names in `directory`, without `.` and `..`.
    private static func names(in directory: String) throws(StoreError) -> [String] {
        var names: [String] = []
        do throws(SystemCallError) {
            try FileSystem.forEachName(in: directory) { bytes in
                let name = String(decoding: bytes, as: UTF8.self)
                if name != "." && name != ".." { names.append(name) }
            }
        } catch {
            throw StoreError(error)
        }
        return names
    }
}
