import Foundation
import Glibc
import TestSupport
import Testing

@testable import PetStore

/// Closing a store releases its lock at once, even while another thread is spawning children
/// (each holds a copy of every descriptor until it execs).
@Suite struct LockReleaseTests {
    @Test func reopeningRightAfterCloseNeverFindsItLocked() throws {
        let dir = TempDir()
        let spawning = Spawner()
        spawning.start()
        defer { spawning.stop() }
        var locked = 0
        for _ in 0..<1500 {
            do {
                let store = try PetStore.open(directory: dir.store)
                store.close()
            } catch {
                guard error.kind == .locked else { throw error }
                locked += 1
            }
        }
        #expect(spawning.spawned > 0, "the spawning thread ran")
        #expect(locked == 0, "\(locked) of 1500 reopens found the lock still held")
    }
}

/// Spawns /bin/true (standard descriptors closed, so no output files) in a loop on its own thread until stopped.
final class Spawner: @unchecked Sendable {
    private let lock = NSLock()
    private var running = true
    private var count = 0
    private var thread: Thread?

    var spawned: Int { lock.withLock { count } }

    func start() {
        let t = Thread { [self] in
            while lock.withLock({ running }) {
                let child = try? Spawned(
                    "/bin/true", [], environment: [:], directory: "/tmp", label: "true", closeStandardFDs: true)
                if let child {
                    child.reap(blocking: true)
                    lock.withLock { count += 1 }
                }
            }
        }
        thread = t
        t.start()
    }

    func stop() {
        lock.withLock { running = false }
        while !(thread?.isFinished ?? true) { usleep(1000) }
    }
}
