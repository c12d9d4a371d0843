import Glibc

/// A single-threaded `poll(2)` loop over its own descriptors and its sources' (bus connections).
///
/// Before every sleep it lets each ``EventSource`` do the work that is ready (a connection drains
/// its incoming queue until `DBUS_DISPATCH_COMPLETE`), so nothing waits for more traffic; work
/// started from an fd handler (a timerfd, a signalfd, inotify) goes on at the next iteration. It
/// never blocks anywhere but in `poll`. Not thread-safe: create, run and feed it on one thread.
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

    /// A descriptor a source wants watched in this iteration, and for what.
    public struct Descriptor: Sendable {
        /// The fd.
        public var fd: Int32
        /// What to wait for.
        public var events: Events

        /// Watches `fd` for `events`.
        public init(fd: Int32, events: Events) {
            self.fd = fd
            self.events = events
        }
    }

    /// A handle for ``removeFD(_:)``.
    public struct FDToken: Hashable, Sendable {
        let id: Int
    }

    /// Why ``run()`` returned.
    public enum Exit: Equatable, Sendable {
        /// ``stop()`` was called.
        case stopped
        /// A source ended: a connection lost its bus (libdbus did not `_exit`; the owner decides what to do).
        case disconnected
        /// `poll` failed with this errno.
        case pollFailed(Int32)
    }

    private struct UserFD {
        let fd: Int32
        let events: Events
        let handler: (Events) -> Void
    }

    private enum Owner {
        case source(EventSource, Int)
        case user(Int)
    }

    /// The sources served, in the order they were added.
    public private(set) var sources: [EventSource] = []
    private var userFDs: [Int: UserFD] = [:]
    private var nextToken = 1
    private var stopRequested = false

    /// Creates an empty loop.
    public init() {}

    deinit {
        for source in sources { source.detach() }
    }

    /// Serves `source` from the next iteration on; adding it twice does nothing.
    public func add(_ source: EventSource) {
        guard !sources.contains(where: { $0 === source }) else { return }
        sources.append(source)
    }

    /// Stops serving `source` and tells it so (``EventSource/detach()``).
    public func remove(_ source: EventSource) {
        guard sources.contains(where: { $0 === source }) else { return }
        sources.removeAll { $0 === source }
        source.detach()
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
        let deadline = MonotonicClock.milliseconds() + Int64(MonotonicClock.milliseconds(timeout))
        while true {
            dispatch()
            if condition() { return true }
            let left = deadline - MonotonicClock.milliseconds()
            if left <= 0 { return false }
            if iterate(maxWait: Int32(clamping: left)) != nil { return condition() }
        }
    }

    /// One iteration: dispatch, sleep in `poll` (at most `maxWait` ms, -1 for no limit), handle what
    /// is ready. Returns an exit reason, or nil to go on.
    private func iterate(maxWait: Int32) -> Exit? {
        if let exit = dispatch() { return exit }
        var (fds, owners) = pollSet()
        let ready = poll(&fds, nfds_t(fds.count), waitTime(maxWait))
        if ready < 0 {
            let code = errno
            return code == EINTR ? nil : .pollFailed(code)
        }
        for (index, pollfd) in fds.enumerated() where pollfd.revents != 0 {
            let events = Events(rawValue: pollfd.revents)
            switch owners[index] {
            case .source(let source, let position):
                source.handle(position, events)
            case .user(let id):
                // A handler may have removed this one.
                userFDs[id]?.handler(events)
            }
            if stopRequested { return .stopped }
        }
        let now = MonotonicClock.milliseconds()
        for source in sources { source.fireDeadlines(now: now) }
        return stopRequested ? .stopped : nil
    }

    /// Lets every source do its ready work; reports a stop or an ended source.
    @discardableResult
    private func dispatch() -> Exit? {
        for source in sources where !source.dispatch() { return .disconnected }
        return stopRequested ? .stopped : nil
    }

    private func pollSet() -> (fds: [pollfd], owners: [Owner]) {
        var fds: [pollfd] = []
        var owners: [Owner] = []
        var descriptors: [Descriptor] = []
        for source in sources {
            descriptors.removeAll(keepingCapacity: true)
            source.appendDescriptors(to: &descriptors)
            for (position, descriptor) in descriptors.enumerated() {
                fds.append(pollfd(fd: descriptor.fd, events: descriptor.events.rawValue, revents: 0))
                owners.append(.source(source, position))
            }
        }
        for (id, entry) in userFDs.sorted(by: { $0.key < $1.key }) {
            fds.append(pollfd(fd: entry.fd, events: entry.events.rawValue, revents: 0))
            owners.append(.user(id))
        }
        return (fds, owners)
    }

    /// The poll timeout: the nearest source deadline, capped by `maxWait`; 0 if work still waits.
    private func waitTime(_ maxWait: Int32) -> Int32 {
        if sources.contains(where: { $0.hasPendingWork }) { return 0 }
        var wait = maxWait
        let now = MonotonicClock.milliseconds()
        for source in sources {
            guard let deadline = source.nextDeadline else { continue }
            let left = Int32(clamping: max(0, deadline - now))
            wait = wait < 0 ? left : min(wait, left)
        }
        return wait
    }
}
