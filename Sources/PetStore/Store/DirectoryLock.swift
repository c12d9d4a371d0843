import Glibc
import LinuxKit

/// The exclusive lock on the data directory (petprogress(7) §5, one writer): `flock(LOCK_EX | LOCK_NB)` on
/// `.lock`. The kernel drops it when the process dies, even by SIGKILL, so a crash never leaves a
/// stale lock behind.
struct DirectoryLock {
    let file: FileDescriptor

    static let name = ".lock"

    static func acquire(in folder: DataFolder) throws(StoreError) -> DirectoryLock {
        let directory = folder.path
        // Read-only: an open-for-write descriptor would pin the mount writable for the daemon's life.
        let file = try folder.open(name, .create)
        let locked: Bool
        do throws(SystemCallError) {
            locked = try file.tryLock()
        } catch {
            file.close()
            throw StoreError(error)
        }
        guard locked else {
            let holder =
                (try? file.readAll(limit: 64)).flatMap { String(decoding: $0, as: UTF8.self) }
                .map(\.trimmingWhitespace) ?? ""
            file.close()
            let who = Int(holder).map { " (process \($0))" } ?? ""
            throw StoreError(
                .locked,
                "Another petprogressd\(who) is already using \(directory); stop it first, or choose another --data-dir."
            )
        }
        // The holder's pid, for the message above; best effort, the lock itself is what counts.
        // Fixed width and no O_TRUNC: overwriting in place costs no journal commit at start-up.
        // The same file as the one locked, or none: the name may have been replaced since.
        if let writer = try? folder.open(name, .writeOnly),
            (try? writer.status()).map(\.inode) == (try? file.status()).map(\.inode)
        {
            let pid = String(getpid())
            try? writer.writeAll(Array((pid + String(repeating: " ", count: max(0, 11 - pid.count)) + "\n").utf8))
            writer.close()
        }
        return DirectoryLock(file: file)
    }

    /// Unlocks, then closes. The explicit unlock matters: a child being spawned by another thread
    /// holds a copy of every descriptor until it execs, and closing ours alone would leave the lock
    /// held through that copy; `LOCK_UN` releases it for every copy at once.
    func release() {
        file.unlock()
        file.close()
    }
}
