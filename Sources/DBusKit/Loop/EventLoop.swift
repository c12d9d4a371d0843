import CDBus
import Glibc

/// A single-threaded `poll(2)` loop over the connections' watches and timeouts and the owner's own fds.
///
/// Before every sleep it drains each connection's incoming queue until `DBUS_DISPATCH_COMPLETE`, so no
/// message waits for more traffic; a message sent from an fd handler (a timerfd, a signalfd, inotify)
/// goes out at once or as soon as the socket is writable, because the loop watches libdbus's write
/// watch. It never blocks in libdbus. Not thread-safe: create, run and feed it on one thread.
public final class EventLoop {
    /// Readiness conditions for ``addFD(_:events:handler:)``.
    public struct Events: OptionSet, Sendable {
        /// The raw `poll` bits.
        public let rawValue: Int16
        /// Creates events from `poll` bits.
        public init(rawValue: Int16) { self.rawValue = rawValue }
        /// Data to read (`POLLIN`).
        public static let readable = Events(rawValue: Int16(POLLIN))
        /// Room to write (`POLLOUT`).
        public static let writable = Events(rawValue: Int16(POLLOUT))
        /// An error condition (`POLLERR`; always reported).
        public static let error = Events(rawValue: Int16(POLLERR))
        /// The peer hung up (`POLLHUP`; always reported).
        public static let hangup = Events(rawValue: Int16(POLLHUP))
    }

    /// A handle for ``removeFD(_:)``.
    public struct FDToken: Hashable, Sendable {
        let id: Int
    }

    /// Why ``run()`` returned.
    public enum Exit: Equatable, Sendable {
        /// ``stop()`` was called.
        case stopped
        /// A connection lost its bus (libdbus did not `_exit`; the owner decides what to do).
        case disconnected
        /// `poll` failed with this errno.
        case pollFailed(Int32)
    }

    private struct UserFD {
        let fd: Int32
        let events: Events
        let handler: (Events) -> Void
    }

    private let table = WatchTable()
    private var connections: [Connection] = []
    private var userFDs: [Int: UserFD] = [:]
    private var nextToken = 1
    private var stopRequested = false

    /// Creates an empty loop.
    public init() {}

    deinit {
        for connection in connections { WatchTable.uninstall(from: connection.raw) }
    }

    /// Adds `connection`: its watches and timeouts join this loop and its queue is drained each iteration.
    public func add(_ connection: Connection) throws {
        guard !connections.contains(where: { $0 === connection }) else { return }
        try table.install(on: connection.raw)
        connections.append(connection)
    }

    /// Removes `connection` from the loop (its watches go with it).
    public func remove(_ connection: Connection) {
        guard connections.contains(where: { $0 === connection }) else { return }
        WatchTable.uninstall(from: connection.raw)
        connections.removeAll { $0 === connection }
    }

    /// Watches `fd` for `events`; `handler` runs on the loop with the events that occurred. The loop
    /// does not own or close `fd`: remove it before closing it, or `poll` reports `POLLNVAL` forever.
    @discardableResult
    public func addFD(_ fd: Int32, events: Events = .readable, handler: @escaping (Events) -> Void) -> FDToken {
        let token = FDToken(id: nextToken)
        nextToken += 1
        userFDs[token.id] = UserFD(fd: fd, events: events, handler: handler)
        return token
    }

    /// Stops watching the fd behind `token`. Safe to call from its own handler.
    public func removeFD(_ token: FDToken) {
        userFDs[token.id] = nil
    }

    /// Makes ``run()`` return ``Exit/stopped`` after the current handler.
    public func stop() {
        stopRequested = true
    }

    /// Runs until ``stop()`` or a disconnection.
    public func run() -> Exit {
        stopRequested = false
        while true {
            if let exit = iterate(maxWait: -1) { return exit }
        }
    }

    /// Runs until `condition` holds (true), a timeout in `timeout` (false), or a stop or disconnection
    /// (false). Handy for clients that wait for one signal.
    public func run(until condition: () -> Bool, timeout: Duration) -> Bool {
        stopRequested = false
        let deadline = MonotonicClock.milliseconds() + Int64(Connection.milliseconds(timeout))
        while true {
            drain()
            if condition() { return true }
            let left = deadline - MonotonicClock.milliseconds()
            if left <= 0 { return false }
            if iterate(maxWait: Int32(clamping: left)) != nil { return condition() }
        }
    }

    /// One iteration: drain, sleep in `poll` (at most `maxWait` ms, -1 for no limit), handle what is ready.
    /// Returns an exit reason, or nil to go on.
    private func iterate(maxWait: Int32) -> Exit? {
        if let exit = drain() { return exit }
        var snapshot = pollSet()
        let wait = waitTime(maxWait)
        let ready = poll(&snapshot.fds, nfds_t(snapshot.fds.count), wait)
        if ready < 0 {
            let code = errno
            return code == EINTR ? nil : .pollFailed(code)
        }
        for (index, pollfd) in snapshot.fds.enumerated() where pollfd.revents != 0 {
            switch snapshot.owners[index] {
            case .watch(let watch, let generation):
                // A handled watch may have removed others (a disconnect removes them all).
                guard table.watches[watch]?.generation == generation else { continue }
                _ = dbus_watch_handle(watch, Self.watchFlags(pollfd.revents))
            case .user(let id):
                guard let entry = userFDs[id] else { continue }
                entry.handler(Events(rawValue: pollfd.revents))
            }
            if stopRequested { return .stopped }
        }
        fireTimeouts()
        return stopRequested ? .stopped : nil
    }

    /// Dispatches every queued message on every connection; reports a stop or a lost connection.
    @discardableResult
    private func drain() -> Exit? {
        for connection in connections {
            // Dispatch until COMPLETE: data may have been read by a blocking call meanwhile.
            _ = connection.dispatchAll()
            if connection.state.disconnected { return .disconnected }
        }
        return stopRequested ? .stopped : nil
    }

    private enum Owner {
        case watch(OpaquePointer, UInt64)
        case user(Int)
    }

    private func pollSet() -> (fds: [pollfd], owners: [Owner]) {
        var fds: [pollfd] = []
        var owners: [Owner] = []
        for (watch, entry) in table.watches where dbus_watch_get_enabled(watch) != 0 {
            let flags = dbus_watch_get_flags(watch)
            var events: Int16 = 0
            if flags & DBUS_WATCH_READABLE.rawValue != 0 { events |= Int16(POLLIN) }
            if flags & DBUS_WATCH_WRITABLE.rawValue != 0 { events |= Int16(POLLOUT) }
            fds.append(pollfd(fd: dbus_watch_get_unix_fd(watch), events: events, revents: 0))
            owners.append(.watch(watch, entry.generation))
        }
        for (id, entry) in userFDs.sorted(by: { $0.key < $1.key }) {
            fds.append(pollfd(fd: entry.fd, events: entry.events.rawValue, revents: 0))
            owners.append(.user(id))
        }
        return (fds, owners)
    }

    /// The poll timeout: the nearest libdbus timeout, capped by `maxWait`; 0 if messages still wait.
    private func waitTime(_ maxWait: Int32) -> Int32 {
        if connections.contains(where: { $0.hasPendingDispatch }) { return 0 }
        var wait = maxWait
        let now = MonotonicClock.milliseconds()
        for entry in table.timeouts.values {
            guard let deadline = entry.deadline else { continue }
            let left = Int32(clamping: max(0, deadline - now))
            wait = wait < 0 ? left : min(wait, left)
        }
        return wait
    }

    private func fireTimeouts() {
        let now = MonotonicClock.milliseconds()
        let due = table.timeouts.filter { ($0.value.deadline ?? Int64.max) <= now }
        for (timeout, entry) in due {
            // Handling one timeout may remove another (a pending call completing).
            guard table.timeouts[timeout]?.generation == entry.generation else { continue }
            _ = dbus_timeout_handle(timeout)
            table.rearmTimeout(timeout)
        }
    }

    private static func watchFlags(_ revents: Int16) -> UInt32 {
        var flags: UInt32 = 0
        if revents & Int16(POLLIN) != 0 { flags |= DBUS_WATCH_READABLE.rawValue }
        if revents & Int16(POLLOUT) != 0 { flags |= DBUS_WATCH_WRITABLE.rawValue }
        if revents & Int16(POLLERR) != 0 { flags |= DBUS_WATCH_ERROR.rawValue }
        if revents & Int16(POLLHUP) != 0 { flags |= DBUS_WATCH_HANGUP.rawValue }
        return flags
    }
}
