import Foundation

/// Kills every still-running child at process exit, so a crashed or failed test leaves no process.
final class Reaper: @unchecked Sendable {
    static let shared = Reaper()
    private let lock = NSLock()
    private var pids: Set<pid_t> = []

    private init() {
        atexit {
            for pid in Reaper.shared.snapshot() { kill(pid, SIGKILL) }
        }
    }

    func track(_ process: Spawned) {
        lock.lock()
        pids.insert(process.pid)
        lock.unlock()
    }

    func untrack(_ pid: pid_t) {
        lock.lock()
        pids.remove(pid)
        lock.unlock()
    }

    func snapshot() -> Set<pid_t> {
        lock.lock()
        defer { lock.unlock() }
        return pids
    }
}
