import CDBus
import Glibc

/// A private connection to a message bus, with exit-on-disconnect off.
///
/// libdbus's shared `dbus_bus_get` connection calls `_exit()` when the bus goes away; this one never
/// does: a lost bus shows up as ``isConnected`` turning false and LinuxKit's `EventLoop.run()`
/// returning `.disconnected`. Use it from one thread (the event loop's).
public final class Connection {
    let raw: OpaquePointer
    let state: ConnectionState
    private var closed = false

    /// Connects to the bus at `address` (e.g. `unix:path=/run/user/1000/bus`) and registers with it.
    public init(address: String) throws {
        guard DBusNames.noNUL(address) else { throw DBusError.invalidArgs("Invalid bus address.") }
        var opened: OpaquePointer?
        opened = try LibDBus.withError { dbus_connection_open_private(address, $0) }
        guard let raw = opened else { throw DBusError.failed("Could not connect to \(address).") }
        self.raw = raw
        self.state = ConnectionState()
        dbus_connection_set_exit_on_disconnect(raw, 0)
        // Once every stored property is set, a throw below runs deinit, which closes and releases.
        try LibDBus.check(Self.installFilter(raw, state), "dbus_connection_add_filter")
        let registered = try LibDBus.withError { dbus_bus_register(raw, $0) }
        try LibDBus.check(registered, "dbus_bus_register")
    }

    /// Connects to the session bus: `DBUS_SESSION_BUS_ADDRESS`, else `unix:path=$XDG_RUNTIME_DIR/bus`.
    public static func session() throws -> Connection {
        let environment = LibDBus.string(getenv("DBUS_SESSION_BUS_ADDRESS"))
        if let environment, !environment.isEmpty { return try Connection(address: environment) }
        if let runtime = LibDBus.string(getenv("XDG_RUNTIME_DIR")), !runtime.isEmpty {
            return try Connection(address: "unix:path=\(runtime)/bus")
        }
        throw DBusError(
            name: DBusError.Name.failed,
            message: "No session bus: DBUS_SESSION_BUS_ADDRESS and XDG_RUNTIME_DIR are unset.")
    }

    deinit {
        closeAndRelease()
    }

    /// The unique name the bus gave this connection, e.g. `:1.42`.
    public var uniqueName: String {
        LibDBus.string(dbus_bus_get_unique_name(raw)) ?? ""
    }

    /// False once the bus has gone away or ``close()`` was called.
    public var isConnected: Bool {
        !closed && !state.disconnected && dbus_connection_get_is_connected(raw) != 0
    }

    /// Runs `handler` with each failure libdbus reports where no caller can be told: a reply or a
    /// held signal it could not queue, a watch, timeout or dispatch it could not handle (all out of
    /// memory). The connection goes on; the owner decides whether to log it.
    public func onFailure(_ handler: @escaping (DBusError) -> Void) {
        state.failureHandlers.append(handler)
    }

    /// Runs `handler` once when the connection to the bus is lost (not on ``close()``).
    public func onDisconnect(_ handler: @escaping () -> Void) {
        state.disconnectHandlers.append(handler)
    }

    /// Runs `handler` with each incoming message before anything dispatches it (filters, signal
    /// subscriptions, exported objects, the fallback): for an owner whose deferred replies must go
    /// out before whatever the message causes.
    public func onIncoming(_ handler: @escaping (Message) -> Void) {
        state.incomingHandlers.append(handler)
    }

    /// Runs `handler` each time the event loop has dispatched every queued incoming message, before
    /// it sleeps: for an owner that answers a run of queued calls together (deferred replies).
    public func onDrained(_ handler: @escaping () -> Void) {
        state.drainedHandlers.append(handler)
    }

    /// True when messages wait in the incoming queue: inside a method handler, more calls follow
    /// this one before the queue drains.
    public var hasQueuedMessages: Bool {
        dbus_connection_get_dispatch_status(raw) == DBUS_DISPATCH_DATA_REMAINS
    }

    /// Queues `message` for sending; it goes out at once when the socket can take it, else when the
    /// event loop sees the socket writable. A signal sent while an exported object's method handler
    /// runs waits until the handler's reply has been sent. Throws `Disconnected` when the
    /// connection is gone.
    public func send(_ message: Message) throws {
        guard isConnected else { throw DBusError.disconnected }
        if message.kind == .signal, state.heldSignals != nil {
            state.heldSignals?.append(message)
            return
        }
        try state.send(message, on: raw)
    }

    /// Keeps a caller's calls to exported objects for later while `bytes` or more of answers to
    /// it wait in the outgoing queue, and answers them in turn as its answers go out (past
    /// ``ParkedCalls/callsPerCaller`` parked calls, with `LimitsExceeded`). libdbus writes the queue in
    /// order: without this, a caller that never reads its replies would fill it without bound and
    /// keep every other caller's answers waiting behind its own.
    public func limitQueuedBytesPerDestination(_ bytes: Int) {
        state.queuedBytesLimit = bytes
    }

    /// The bytes of messages waiting in the outgoing queue.
    public var outgoingBytes: Int { Int(dbus_connection_get_outgoing_size(raw)) }

    /// Blocks until every queued message has been written (for short-lived clients before they exit).
    public func flush() {
        guard isConnected else { return }
        dbus_connection_flush(raw)
    }

    /// Closes the connection. Idempotent. Subscriptions, disconnect and failure handlers are dropped
    /// so that closures capturing this connection do not keep it alive.
    public func close() {
        guard !closed else { return }
        closed = true
        dbus_connection_close(raw)
        state.subscriptions.removeAll()
        state.disconnectHandlers.removeAll()
        state.failureHandlers.removeAll()
        state.incomingHandlers.removeAll()
        state.drainedHandlers.removeAll()
        state.parked = ParkedCalls()  // its calls hold their registrations, which hold the state
    }

    private func closeAndRelease() {
        close()
        // The only reference DBusKit took; finalizing releases filter data and object registrations.
        dbus_connection_unref(raw)
    }

    /// Drains the incoming queue: dispatches until libdbus reports `DBUS_DISPATCH_COMPLETE`.
    /// Returns false when libdbus needs memory to continue.
    func dispatchAll() -> Bool {
        while true {
            switch dbus_connection_dispatch(raw) {
            case DBUS_DISPATCH_DATA_REMAINS: continue
            case DBUS_DISPATCH_COMPLETE: return true
            default: return false
            }
        }
    }
}
