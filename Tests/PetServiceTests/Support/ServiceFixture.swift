import Foundation
import PetBus
import PetCore
import PetStore
import Testing

@testable import DBusKit
@testable import PetService

/// A `PetService` in this process over a real `PetStore` in a fresh temporary directory, started
/// as the daemon starts it, with its environment in the test's hands: the clock (`now`), the local
/// zone (`local`), the store's writes counted and failed on request (`failNextWrites`), and every
/// signal recorded as a bus observer would see it (`signals`). Calls go through the exported
/// object as the bus delivers them: its `prepare` (the refresh), then the dispatcher's handling.
final class ServiceFixture {
    /// The data directory (removed by `close`).
    let directory: String
    private(set) var service: PetService
    private(set) var object: ExportedObject
    /// The store, clock and zone the service's environment reads, and what it records.
    let outside: Outside
    /// The service on a real connection, once `queued` has used it.
    private var bus: BusSeam?

    /// What the service's clock reads.
    var now: Instant {
        get { outside.now }
        set { outside.now = newValue }
    }
    /// What the service's zone resolution returns (setting it replaces `resolveZone`).
    var local: LocalZone {
        get { outside.resolveZone() }
        set { outside.resolveZone = { newValue } }
    }
    /// How the service's zone resolution resolves: `local` unless the test says otherwise.
    var resolveZone: () -> LocalZone {
        get { outside.resolveZone }
        set { outside.resolveZone = newValue }
    }

    /// Starts the service at `now` in `zone` on an empty data directory, as `Daemon` does; the
    /// start-up refresh has run and its write is already forgotten.
    init(now: Instant, zone: LocalZone) throws {
        directory = try Self.temporaryDirectory()
        outside = Outside(now: now, resolveZone: { zone }, store: try PetStore.open(directory: directory))
        (service, object) = try Self.start(outside)
    }

    /// Stops the service and starts a new one over the same directory (a daemon restart): the
    /// store is closed, reopened and loaded, so the new service holds only what was durable.
    func restart() throws {
        outside.store.close()
        outside.store = try PetStore.open(directory: directory)
        (service, object) = try Self.start(outside)
    }

    func close() {
        bus?.close()
        outside.store.close()
        try? FileManager.default.removeItem(atPath: directory)
    }

    /// Loads the store and starts a service on it with the daemon's own steps (`makeService`,
    /// then the start-up refresh), on the built-in stages.
    private static func start(_ outside: Outside) throws -> (PetService, ExportedObject) {
        let service = Daemon.makeService(
            loaded: try outside.store.load(now: outside.now), environment: [:], executable: "/nonexistent",
            log: ServiceLog(), live: outside.environment())
        let object = try service.exportedObject()
        service.refresh(startingUp: true)
        outside.forget()
        return (service, object)
    }

    // MARK: What the test observes

    /// The signals since the last `forget`, as a bus observer sees them: `EntryChanged`,
    /// `TasksChanged`, `PropertiesChanged(<property>, …)`.
    var signals: [String] { outside.signals }
    /// The store writes since the last `forget`: `save`, or `commit(<n> records)`.
    var writes: [String] { outside.writes }
    /// The instants the service asked to be woken at since the last `forget`.
    var wakes: [Instant] { outside.wakes }
    /// The service's log lines since the last `forget`.
    var logLines: [String] { outside.log }
    /// The entries the `EntryChanged` signals carried.
    var entriesSignalled: [WidgetEntry] { outside.entries }
    /// How often the clock was read since the last `forget`.
    var clockReads: Int { outside.clockReads }

    // MARK: Queued calls

    /// Sends `calls` at once from a client on a private bus, so that they wait in the service's
    /// incoming queue together, then runs the service until all are answered; their replies, in
    /// order. The service runs on a real `Connection` (exported as the daemon exports it).
    func queued(_ calls: [(String, [DBusValue])]) throws -> [Result<[DBusValue], DBusError>] {
        if bus == nil { bus = try BusSeam(service: service, outside: outside) }
        return try #require(bus).queued(calls)
    }

    /// What a client on the bus received since the last `queued` began: `reply <member>`,
    /// `error <member>` and the signals' names, in arrival order.
    var busEvents: [String] { bus?.events ?? [] }
    /// The store writes made before the first reply of the last `queued` reached the client.
    var writesAtFirstReply: [String] { bus?.writesAtFirstReply ?? [] }

    /// Clears the signals, writes, wakes, log lines and clock reads seen so far.
    func forget() { outside.forget() }

    /// Makes the next writes (saves or commits) throw these errors, one each: before touching the
    /// disk, or after it for one that says `stateReplaced`. The writes after them reach the store.
    func failNextWrites(_ errors: [StoreError]) { outside.failures = errors }

    /// A disk-full failure, as the store reports one.
    static let diskFull = StoreError(
        .io(errno: ENOSPC), "Could not write state.json: No space left on device (ENOSPC).")

    /// A directory fsync that failed after the new state file was renamed into place.
    static let notDurable = StoreError(
        .io(errno: EIO), "Could not sync the data directory: Input/output error (EIO).", stateReplaced: true)

    // MARK: Calls

    /// The signals of the last `call`: those its refresh caused (sent before the reply) and those
    /// the call itself caused (sent after it).
    private(set) var lastCall: (refresh: [String], call: [String]) = ([], [])

    /// One method call as the bus delivers it: the object's `prepare` (the refresh before every
    /// call), then the call itself — `ObjectDispatcher.dispatch` without the connection.
    /// `afterRefresh` runs between the two, as time passing while the call is handled.
    @discardableResult
    func call(
        _ member: String, _ arguments: [DBusValue] = [], interface: String = PetBus.interface,
        afterRefresh: () -> Void = {}
    ) throws -> Result<[DBusValue], DBusError> {
        let message = try Message.methodCall(
            destination: PetBus.name, path: PetBus.path, interface: interface, member: member)
        try message.append(arguments)
        let before = signals.count
        object.prepare?(message)
        let refreshed = signals.count
        afterRefresh()
        let outcome = ObjectDispatcher.outcome(for: message, on: object, emit: outside.record)
        lastCall = (Array(signals[before..<refreshed]), Array(signals[refreshed...]))
        switch try #require(outcome, "\(interface).\(member) is not a member of the object") {
        case .success(.values(let values)): return .success(values)
        case .success(.encoded(let body)): return .success(try body.values())
        case .success(.deferred): throw FixtureError("\(member) was deferred: only queued calls on the bus are")
        case .failure(let error): return .failure(error)
        }
    }

    /// A call that must succeed; its reply's values.
    @discardableResult
    func succeed(_ member: String, _ arguments: [DBusValue] = [], interface: String = PetBus.interface) throws
        -> [DBusValue]
    {
        try call(member, arguments, interface: interface).get()
    }

    /// The error a call that must fail got: `StorageFailure`, `InvalidArgument`, … (the contract's
    /// without their prefix), or the full name of any other.
    func failure(_ member: String, _ arguments: [DBusValue] = [], interface: String = PetBus.interface) throws
        -> String
    {
        guard case .failure(let error) = try call(member, arguments, interface: interface) else {
            Issue.record("\(member) succeeded")
            return ""
        }
        return error.name.hasPrefix(PetBus.errorPrefix)
            ? String(error.name.dropFirst(PetBus.errorPrefix.count)) : error.name
    }

    /// `Properties.Get` of one of the interface's properties.
    func property(_ name: String) throws -> DBusValue {
        let reply = try succeed("Get", [.string(PetBus.interface), .string(name)], interface: PropertiesInterface.name)
        return try #require(reply.first?.variantValue)
    }

    /// `Properties.Set`; the outcome.
    @discardableResult
    func setProperty(_ name: String, _ value: DBusValue) throws -> Result<[DBusValue], DBusError> {
        try call(
            "Set", [.string(PetBus.interface), .string(name), .variant(value)], interface: PropertiesInterface.name)
    }

    /// `AddTask(title, time)` on the open day; the new task's id.
    func addTask(_ title: String, _ time: String) throws -> String {
        try #require(try succeed("AddTask", [.string(title), .string(time)]).first?.stringValue)
    }

    /// What `GetWidgetEntry` answers now (a call: it refreshes first).
    func entry() throws -> WidgetEntry {
        try WidgetEntry(dbus: try #require(try succeed("GetWidgetEntry").first))
    }

    private static func temporaryDirectory() throws -> String {
        var template = Array((NSTemporaryDirectory() + "/petservice-XXXXXX").utf8CString)
        guard let made = mkdtemp(&template) else { throw FixtureError("mkdtemp failed: errno \(errno)") }
        return String(cString: made)
    }
}

/// The service's surroundings: the real store, the test's clock and zone, the failures to throw,
/// and what the service did to them.
final class Outside {
    var now: Instant
    var resolveZone: () -> LocalZone
    var store: PetStore
    var failures: [StoreError] = []
    var signals: [String] = []
    var entries: [WidgetEntry] = []
    var writes: [String] = []
    var wakes: [Instant] = []
    var log: [String] = []
    var clockReads = 0
    /// The instants the next clock reads return, one each, before `now` again.
    var nextReads: [Instant] = []
    /// Whether calls wait in the service's incoming queue (the bus connection's, once there is one).
    var callsQueued: () -> Bool = { false }
    /// Where signals go besides the record (the bus, once there is one).
    var bus: ServiceSignals?

    init(now: Instant, resolveZone: @escaping () -> LocalZone, store: PetStore) {
        self.now = now
        self.resolveZone = resolveZone
        self.store = store
    }

    func forget() {
        (signals, entries, writes, wakes, log, clockReads) = ([], [], [], [], [], 0)
    }

    /// The service's environment over these surroundings: the real store behind `write`.
    func environment() -> PetService.Environment {
        PetService.Environment(
            now: { [self] in
                clockReads += 1
                return nextReads.isEmpty ? now : nextReads.removeFirst()
            },
            localZone: { [self] in resolveZone() },
            save: { [self] world throws(StoreError) in
                try write("save") { () throws(StoreError) in try store.save(world) }
            },
            commit: { [self] closeouts, world throws(StoreError) in
                try write("commit(\(closeouts.compactMap(\.record).count) records)") { () throws(StoreError) in
                    try store.commit(closeouts, world: world)
                }
            },
            historyDay: { [self] day throws(StoreError) in try store.history(day: day) },
            history: { [self] range throws(StoreError) in try store.history(in: range) },
            dataDirectory: store.directory,
            signals: ServiceSignals(
                entryChanged: { [self] in
                    entries.append($0)
                    signals.append("EntryChanged")
                    bus?.entryChanged($0)
                },
                tasksChanged: { [self] in
                    signals.append("TasksChanged")
                    bus?.tasksChanged()
                },
                widgetEntryChanged: { [self] in
                    signals.append("PropertiesChanged(WidgetEntry)")
                    bus?.widgetEntryChanged($0)
                }),
            wake: { [self] in wakes.append($0) }, log: { [self] in log.append($0) },
            callsQueued: { [self] in callsQueued() })
    }

    /// Counts a write and makes it, or throws the next planned failure instead (after making it,
    /// for a failure that says the state file was replaced).
    private func write(_ what: String, _ operation: () throws(StoreError) -> Void) throws(StoreError) {
        writes.append(what)
        guard !failures.isEmpty else { return try operation() }
        let failure = failures.removeFirst()
        if failure.stateReplaced { try operation() }
        throw failure
    }

    /// A signal DBusKit sends itself (`PropertiesChanged` after a `Set`), by the properties it names.
    func record(_ message: Message) {
        let changed = (try? message.arguments())?.dropFirst().first?.vardictValue?.keys.sorted() ?? []
        signals.append("\(message.member ?? "?")(\(changed.joined(separator: ", ")))")
    }
}

struct FixtureError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
