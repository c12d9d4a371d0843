import CDBus
import LinuxKit

/// The `DBusWatch`es and `DBusTimeout`s libdbus has handed to one connection's ``ConnectionSource``.
///
/// libdbus calls the add/remove/toggle callbacks from inside its own functions, with its connection
/// lock held, so they only record state here and never call back into the connection. Each entry gets a
/// generation number so that a pointer freed and reused during one loop iteration is not mistaken for
/// the old watch.
final class WatchTable {
    struct WatchEntry {
        let generation: UInt64
    }

    struct TimeoutEntry {
        let generation: UInt64
        var deadline: Int64?  // monotonic milliseconds; nil while disabled
    }

    var watches: [OpaquePointer: WatchEntry] = [:]
    var timeouts: [OpaquePointer: TimeoutEntry] = [:]
    private var nextGeneration: UInt64 = 1

    func addWatch(_ watch: OpaquePointer) {
        watches[watch] = WatchEntry(generation: takeGeneration())
    }

    func removeWatch(_ watch: OpaquePointer) {
        watches[watch] = nil
    }

    func addTimeout(_ timeout: OpaquePointer) {
        timeouts[timeout] = TimeoutEntry(generation: takeGeneration(), deadline: Self.deadline(for: timeout))
    }

    func removeTimeout(_ timeout: OpaquePointer) {
        timeouts[timeout] = nil
    }

    /// Re-arms a timeout from now (after toggling or after it fired).
    func rearmTimeout(_ timeout: OpaquePointer) {
        timeouts[timeout]?.deadline = Self.deadline(for: timeout)
    }

    private func takeGeneration() -> UInt64 {
        defer { nextGeneration += 1 }
        return nextGeneration
    }

    private static func deadline(for timeout: OpaquePointer) -> Int64? {
        guard dbus_timeout_get_enabled(timeout) != 0 else { return nil }
        return MonotonicClock.milliseconds() + Int64(dbus_timeout_get_interval(timeout))
    }

    /// Installs this table as `connection`'s watch and timeout handler. libdbus keeps one retained
    /// reference for each of the two and releases it when the functions are replaced or the
    /// connection is finalized.
    func install(on connection: OpaquePointer) throws {
        let watchData = Unmanaged.passRetained(self).toOpaque()
        let watchesOK = dbus_connection_set_watch_functions(
            connection,
            { watch, data in
                guard let watch, let data else { return 0 }
                Unmanaged<WatchTable>.fromOpaque(data).takeUnretainedValue().addWatch(watch)
                return 1
            },
            { watch, data in
                guard let watch, let data else { return }
                Unmanaged<WatchTable>.fromOpaque(data).takeUnretainedValue().removeWatch(watch)
            },
            { _, _ in },  // toggled: nothing to record, the loop reads dbus_watch_get_enabled each time
            watchData,
            { data in if let data { Unmanaged<WatchTable>.fromOpaque(data).release() } })
        if watchesOK == 0 { Unmanaged<WatchTable>.fromOpaque(watchData).release() }
        try LibDBus.check(watchesOK, "dbus_connection_set_watch_functions")

        let timeoutData = Unmanaged.passRetained(self).toOpaque()
        let timeoutsOK = dbus_connection_set_timeout_functions(
            connection,
            { timeout, data in
                guard let timeout, let data else { return 0 }
                Unmanaged<WatchTable>.fromOpaque(data).takeUnretainedValue().addTimeout(timeout)
                return 1
            },
            { timeout, data in
                guard let timeout, let data else { return }
                Unmanaged<WatchTable>.fromOpaque(data).takeUnretainedValue().removeTimeout(timeout)
            },
            { timeout, data in
                guard let timeout, let data else { return }
                Unmanaged<WatchTable>.fromOpaque(data).takeUnretainedValue().rearmTimeout(timeout)
            },
            timeoutData,
            { data in if let data { Unmanaged<WatchTable>.fromOpaque(data).release() } })
        if timeoutsOK == 0 { Unmanaged<WatchTable>.fromOpaque(timeoutData).release() }
        try LibDBus.check(timeoutsOK, "dbus_connection_set_timeout_functions")
    }

    /// Removes this table from `connection`; libdbus calls the remove callbacks for every entry.
    /// (Clearing allocates nothing, so libdbus has no reason to fail; if it ever does, it says so.)
    static func uninstall(from connection: OpaquePointer) throws {
        let watches = dbus_connection_set_watch_functions(connection, nil, nil, nil, nil, nil)
        let timeouts = dbus_connection_set_timeout_functions(connection, nil, nil, nil, nil, nil)
        try LibDBus.check(watches, "dbus_connection_set_watch_functions")
        try LibDBus.check(timeouts, "dbus_connection_set_timeout_functions")
    }
}
