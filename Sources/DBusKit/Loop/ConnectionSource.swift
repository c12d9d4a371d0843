import CDBus
import LinuxKit

/// A ``Connection`` as LinuxKit's `EventLoop` sees it: libdbus's watches to poll, its timeouts as
/// deadlines, and its incoming queue drained before every sleep (a thread blocked in libdbus cannot
/// be woken by another, so everything waits in one poll loop).
///
/// libdbus reports out-of-memory in a watch, timeout or dispatch by a `FALSE` return that no
/// caller can be thrown to; each goes to the connection's ``Connection/onFailure(_:)`` handlers.
/// A watch that failed stays ready and is handled again on the next iteration.
final class ConnectionSource: EventSource {
    let connection: Connection
    private let table = WatchTable()
    /// The watches appended in this iteration, by position, with the generation they had then.
    private var polled: [(watch: OpaquePointer, generation: UInt64)] = []

    /// Installs the table as the connection's watch and timeout handler.
    init(_ connection: Connection) throws {
        self.connection = connection
        try table.install(on: connection.raw)
    }

    func dispatch() -> Bool {
        // Dispatch until COMPLETE: data may have been read by a blocking call meanwhile.
        if !connection.dispatchAll() { connection.state.report(.noMemory("dbus_connection_dispatch")) }
        connection.state.releaseParked(on: connection.raw)
        for handler in connection.state.drainedHandlers { handler() }
        return !connection.state.disconnected
    }

    var hasPendingWork: Bool { connection.hasQueuedMessages }

    func appendDescriptors(to descriptors: inout [EventLoop.Descriptor]) {
        polled.removeAll(keepingCapacity: true)
        for (watch, entry) in table.watches where dbus_watch_get_enabled(watch) != 0 {
            let flags = dbus_watch_get_flags(watch)
            var events: EventLoop.Events = []
            if flags & DBUS_WATCH_READABLE.rawValue != 0 { events.insert(.readable) }
            if flags & DBUS_WATCH_WRITABLE.rawValue != 0 { events.insert(.writable) }
            descriptors.append(EventLoop.Descriptor(fd: dbus_watch_get_unix_fd(watch), events: events))
            polled.append((watch, entry.generation))
        }
    }

    func handle(_ index: Int, _ events: EventLoop.Events) {
        let (watch, generation) = polled[index]
        // A handled watch may have removed others (a disconnect removes them all).
        guard table.watches[watch]?.generation == generation else { return }
        connection.state.reporting {
            try LibDBus.check(dbus_watch_handle(watch, Self.watchFlags(events)), "dbus_watch_handle")
        }
    }

    var nextDeadline: Int64? {
        table.timeouts.values.compactMap(\.deadline).min()
    }

    func fireDeadlines(now: Int64) {
        let due = table.timeouts.filter { ($0.value.deadline ?? Int64.max) <= now }
        for (timeout, entry) in due {
            // Handling one timeout may remove another (a pending call completing).
            guard table.timeouts[timeout]?.generation == entry.generation else { continue }
            connection.state.reporting { try LibDBus.check(dbus_timeout_handle(timeout), "dbus_timeout_handle") }
            table.rearmTimeout(timeout)
        }
    }

    func detach() {
        connection.state.reporting { try WatchTable.uninstall(from: connection.raw) }
    }

    private static func watchFlags(_ events: EventLoop.Events) -> UInt32 {
        var flags: UInt32 = 0
        if events.contains(.readable) { flags |= DBUS_WATCH_READABLE.rawValue }
        if events.contains(.writable) { flags |= DBUS_WATCH_WRITABLE.rawValue }
        if events.contains(.error) { flags |= DBUS_WATCH_ERROR.rawValue }
        if events.contains(.hangup) { flags |= DBUS_WATCH_HANGUP.rawValue }
        return flags
    }
}
