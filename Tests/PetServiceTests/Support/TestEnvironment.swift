import DBusKit
import PetCore
import PetStore

@testable import PetService

/// The daemon's surroundings in the test's hands, and what the service did to them: the clock
/// (`now`, the reads it counts, `nextReads`, `afterNextRead`), the zone resolution, the store's
/// writes counted and failed on request (`failures`), the wakes asked for and the log lines.
final class TestEnvironment {
    var now: Instant
    var resolveZone: () -> LocalZone
    var failures: [StoreError] = []
    /// A failure planned after this many more writes succeed (`failAfter`).
    private var delayedFailure: (writes: Int, error: StoreError)?
    var writes: [String] = []
    var wakes: [Instant] = []
    var log: [String] = []
    var clockReads = 0
    /// The instants the next clock reads return, one each, before `now` again.
    var nextReads: [Instant] = []
    /// Runs once, right after the next clock read: time passing while a call is handled.
    var afterNextRead: (() -> Void)?

    init(now: Instant, resolveZone: @escaping () -> LocalZone) {
        self.now = now
        self.resolveZone = resolveZone
    }

    /// Lets `writes` more writes succeed, then fails the next with `error`.
    func failAfter(_ writes: Int, _ error: StoreError) { delayedFailure = (writes, error) }

    func forget() {
        (writes, wakes, log, clockReads) = ([], [], [], 0)
    }

    /// The daemon's environment over these surroundings: the data in `directory`, the bus at
    /// `address`, the built-in stages and no icons.
    func daemon(directory: String, address: String) -> Daemon.Setup {
        Daemon.Setup(
            dataDirectory: directory, connect: { try Connection(address: address) },
            now: { [unowned self] in read() }, localZone: { [unowned self] in resolveZone() },
            stages: { (.builtIn, nil) },
            icons: { IconLocator(stages: $0, environment: [:], executable: "/nonexistent") },
            write: { [unowned self] what, perform throws(StoreError) in try write(what, perform) },
            wake: { [unowned self] in wakes.append($0) }, log: { [unowned self] in log.append($0) })
    }

    private func read() -> Instant {
        clockReads += 1
        let instant = nextReads.isEmpty ? now : nextReads.removeFirst()
        if let after = afterNextRead {
            afterNextRead = nil
            after()
        }
        return instant
    }

    /// Counts a write (`save`, or `closeDays(<n> records)`) and makes it, or throws the next planned
    /// failure instead (after making it, for a failure that says the state file was replaced).
    private func write(_ what: Daemon.StoreWrite, _ perform: () throws(StoreError) -> Void) throws(StoreError) {
        switch what {
        case .save: writes.append("save")
        case .closeDays(let records): writes.append("closeDays(\(records) records)")
        case .snapshotBeforeCatchUp: writes.append("before catch-up")
        case .restore: writes.append("restore")
        }
        if let delayed = delayedFailure {
            if delayed.writes == 0 {
                delayedFailure = nil
                throw delayed.error
            }
            delayedFailure = (delayed.writes - 1, delayed.error)
        }
        guard !failures.isEmpty else { return try perform() }
        let failure = failures.removeFirst()
        if failure.stateReplaced { try perform() }
        throw failure
    }
}
