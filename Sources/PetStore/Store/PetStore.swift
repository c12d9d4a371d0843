import LinuxKit
import PetCore

/// The durable local file store (petprogress(7) §5): one atomically replaced `state.json`, append-only
/// history per year, a directory lock. Owned by the daemon's single-threaded loop; not thread-safe.
///
/// Every `save` and `closeDays` is durable before it returns. When one throws, the state
/// file on disk is what it was before the call (unless `StoreError.stateReplaced`), so the caller
/// keeps its previous `PetWorld` in memory and reports `StorageFailure`.
public final class PetStore {
    /// The data directory.
    public var directory: String { folder.path }
    let folder: DataFolder
    private let lock: DirectoryLock
    let history: HistoryFiles
    let generations: Generations
    var statePath: String { folder.path(StateFile.name) }

    /// Set by `load(now:)`: the last day recorded in history.
    public internal(set) var lastHistoryDay: DayKey?
    /// The last closed day of the state on disk (for an empty start, the day it adopted):
    /// history records after it are unacknowledged and dropped by a repair.
    var durableLastClosedDay: DayKey?
    var loaded = false
    /// History may hold records after the state file's last closed day (a failed closeout).
    var historyNeedsRepair = false
    /// Where history ends now, written into each state file (see `HistoryTail`).
    var tail: HistoryTail?
    private var closed = false
    var snapshotFailure: String?

    private init(folder: DataFolder, lock: DirectoryLock) {
        self.folder = folder
        self.lock = lock
        self.history = HistoryFiles(folder: folder)
        self.generations = Generations(folder: folder)
    }

    deinit { if !closed { lock.release() } }

    /// Opens the data directory: creates it (0700) if missing and takes its exclusive lock.
    /// Throws `.locked` when another process holds it, `.unsafe` when the directory is not the
    /// user's; one of the user's that group or others may write to loses those bits first, and
    /// `notice` gets the sentence saying so. Reads and changes nothing else.
    public static func open(directory: String, notice: (String) -> Void = { _ in }) throws(StoreError) -> PetStore {
        let (folder, repaired) = try DataFolder.open(directory)
        if let repaired { notice(repaired) }
        return PetStore(folder: folder, lock: try DirectoryLock.acquire(in: folder))
    }

    /// Releases the lock. The store must not be used afterwards.
    public func close() {
        guard !closed else { return }
        closed = true
        lock.release()
    }

    // MARK: Internals

    func checkReady() throws(StoreError) {
        guard !closed else { throw StoreError(.inconsistent, "The store at \(directory) is closed.") }
        guard loaded else {
            throw StoreError(.inconsistent, "The store at \(directory) must be loaded before it is written.")
        }
    }

    /// Carries out a repair and adopts where history then ends.
    func apply(_ repair: HistoryRepair) throws(StoreError) {
        try repair.apply(history)
        lastHistoryDay = repair.lastDay
        tail = repair.tail
    }
}
