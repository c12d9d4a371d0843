import DBusKit
import Foundation
import LinuxKit
import PetBus
import PetCore
import PetStore
import TestSupport
import Testing

@testable import PetService

/// The daemon composed as `main` composes it (`Daemon.compose`), in this process, over a real
/// `PetStore` and on a real connection to a private bus, with its environment in the test's hands
/// (`TestEnvironment`: the clock, the zone, the store's writes counted and failed on request).
/// Calls go over the bus from a client connection, and replies and signals are what that client
/// received. The service, its connection and the client run on the test's thread, in one event
/// loop that runs while the fixture waits for an answer, so the test may also reach into the
/// service between calls (`service.refresh()` as the timer's wake, `service.world`).
final class ServiceFixture {
    /// The data directory (removed by `close`).
    let directory: String
    /// The clock, zone and store writes the daemon's environment reads, and what it records.
    let environment: TestEnvironment
    private(set) var daemon: Daemon
    var service: PetService { daemon.service }
    private let sandbox: Sandbox
    private let bus: PrivateBus
    private let client: Connection
    private let loop = EventLoop()
    /// The signals the client received since the last `forget`, and the entries `EntryChanged` carried.
    private var received: [String] = []
    private var receivedEntries: [WidgetEntry] = []

    /// What the service's clock reads.
    var now: Instant {
        get { environment.now }
        set { environment.now = newValue }
    }
    /// What the service's zone resolution returns (setting it replaces `resolveZone`).
    var local: LocalZone {
        get { environment.resolveZone() }
        set { environment.resolveZone = { newValue } }
    }
    /// How the service's zone resolution resolves: `local` unless the test says otherwise.
    var resolveZone: () -> LocalZone {
        get { environment.resolveZone }
        set { environment.resolveZone = newValue }
    }

    /// Starts the daemon at `now` in `zone` on an empty data directory; the start-up refresh has
    /// run and what it did is already forgotten.
    init(now: Instant, zone: LocalZone) throws {
        sandbox = try Sandbox("petservice")
        bus = try PrivateBus(blockingIn: sandbox)
        directory = sandbox.path("data")
        environment = TestEnvironment(now: now, resolveZone: { zone })
        client = try Connection(address: bus.address)
        daemon = try Daemon.compose(environment.daemon(directory: directory, address: bus.address))
        for rule in [
            MatchRule(path: PetBus.path, interface: PetBus.interface),
            MatchRule(path: PetBus.path, interface: PropertiesInterface.name, member: "PropertiesChanged"),
        ] {
            _ = try client.subscribe(rule) { [unowned self] in record($0) }
        }
        try loop.add(client)
        try loop.add(daemon.connection)
        forget()
    }

    /// Stops the daemon and composes a new one over the same directory (a restart): the store is
    /// closed, reopened and loaded, so the new service holds only what was durable.
    func restart() throws {
        try settle()
        loop.remove(daemon.connection)
        daemon.close()
        daemon = try Daemon.compose(environment.daemon(directory: directory, address: bus.address))
        try loop.add(daemon.connection)
        forget()
    }

    func close() {
        loop.remove(client)
        loop.remove(daemon.connection)
        daemon.close()
        client.close()
        sandbox.close()
    }

    // MARK: What the test observes

    /// The signals since the last `forget`, as the client received them: `EntryChanged`,
    /// `TasksChanged`, `PropertiesChanged(<property>, …)`.
    var signals: [String] {
        settleOrRecord()
        return received
    }
    /// The entries the `EntryChanged` signals carried.
    var entriesSignalled: [WidgetEntry] {
        settleOrRecord()
        return receivedEntries
    }
    /// The store writes since the last `forget`: `save`, or `closeDays(<n> records)`.
    var writes: [String] { environment.writes }
    /// The instants the service asked to be woken at since the last `forget`.
    var wakes: [Instant] { environment.wakes }
    /// The service's log lines since the last `forget`.
    var logLines: [String] { environment.log }
    /// How often the clock was read since the last `forget`.
    var clockReads: Int { environment.clockReads }

    /// What the client received during the last `call` or `queued`: `reply <member>`,
    /// `error <member>` and the signals' names, in arrival order.
    private(set) var busEvents: [String] = []
    /// The store writes made before the first reply of the last `call` or `queued` reached the client.
    private(set) var writesAtFirstReply: [String] = []
    /// The signals of the last `call`: those its refresh caused (received before the reply) and
    /// those the call itself caused (after it).
    private(set) var lastCall: (refresh: [String], call: [String]) = ([], [])

    /// Clears the signals, writes, wakes, log lines and clock reads seen so far (once everything the
    /// service sent has arrived).
    func forget() {
        settleOrRecord()
        (received, receivedEntries) = ([], [])
        environment.forget()
    }

    /// Makes the next writes (saves or commits) throw these errors, one each: before touching the
    /// disk, or after it for one that says `stateReplaced`. The writes after them reach the store.
    func failNextWrites(_ errors: [StoreError]) { environment.failures = errors }

    /// A disk-full failure, as the store reports one.
    static let diskFull = StoreError(
        .io(errno: ENOSPC), "Could not write state.json: No space left on device (ENOSPC).")

    /// A directory fsync that failed after the new state file was renamed into place.
    static let notDurable = StoreError(
        .io(errno: EIO), "Could not sync the data directory: Input/output error (EIO).", stateReplaced: true)

    // MARK: Calls

    /// One method call from the client; its reply once everything the service sent before and
    /// after it has arrived. `afterRefresh` runs right after the service's refresh read the clock,
    /// as time passing while the call is handled.
    @discardableResult
    func call(
        _ member: String, _ arguments: [DBusValue] = [], interface: String = PetBus.interface,
        afterRefresh: @escaping () -> Void = {}
    ) throws -> Result<[DBusValue], DBusError> {
        try settle()
        let before = received.count
        environment.afterNextRead = afterRefresh
        defer { environment.afterNextRead = nil }
        let outcome = try exchange([(member, interface, arguments)])[0]
        let atReply = try #require(signalsAtFirstReply)
        lastCall = (Array(received[before..<atReply]), Array(received[atReply...]))
        return outcome
    }

    /// Sends `calls` at once from the client, so that they wait in the service's incoming queue
    /// together, then runs until all are answered; their replies, in order.
    func queued(_ calls: [(String, [DBusValue])]) throws -> [Result<[DBusValue], DBusError>] {
        try settle()
        return try exchange(calls.map { ($0.0, PetBus.interface, $0.1) })
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

    // MARK: The bus

    /// How many signals had arrived when the first reply of the last `exchange` did.
    private var signalsAtFirstReply: Int?

    /// Sends `calls`, waits until the bus has passed them all on (a round trip to the bus itself,
    /// which handles the client's messages in order), then runs the loop until each is answered
    /// and everything the service sent before its last answer has arrived.
    private func exchange(_ calls: [(member: String, interface: String, arguments: [DBusValue])]) throws
        -> [Result<[DBusValue], DBusError>]
    {
        busEvents = []
        writesAtFirstReply = []
        signalsAtFirstReply = nil
        var replies: [Int: Result<[DBusValue], DBusError>] = [:]
        for (index, call) in calls.enumerated() {
            let message = try Message.methodCall(
                destination: PetBus.name, path: PetBus.path, interface: call.interface, member: call.member)
            try message.append(call.arguments)
            try client.send(message, timeout: .seconds(20)) { [unowned self] reply in
                if signalsAtFirstReply == nil {
                    writesAtFirstReply = environment.writes
                    signalsAtFirstReply = received.count
                }
                replies[index] = answer(reply, to: call.member)
            }
        }
        _ = try client.call(
            Message.methodCall(
                destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus", interface: "org.freedesktop.DBus",
                member: "GetId"))
        try run(until: { replies.count == calls.count }, "\(calls.map(\.member))")
        try settle()
        return try (0..<calls.count).map { try #require(replies[$0], "call \($0) got no answer") }
    }

    /// A reply as the client got it, noted in `busEvents`.
    private func answer(_ reply: Message, to member: String) -> Result<[DBusValue], DBusError> {
        if let name = reply.errorName {
            busEvents.append("error \(member)")
            let text = (try? reply.arguments())?.first?.stringValue ?? ""
            return .failure(DBusError(name: name, message: text))
        }
        busEvents.append("reply \(member)")
        return Result { try reply.arguments() }.mapError { _ in DBusError.failed("bad reply") }
    }

    /// A signal the client received.
    private func record(_ signal: Message) {
        let member = signal.member ?? "?"
        busEvents.append(member)
        let arguments = (try? signal.arguments()) ?? []
        switch member {
        case "PropertiesChanged":
            let changed = arguments.dropFirst().first?.vardictValue?.keys.sorted() ?? []
            received.append("PropertiesChanged(\(changed.joined(separator: ", ")))")
        case "EntryChanged":
            received.append(member)
            if let value = arguments.first, let entry = try? WidgetEntry(dbus: value) {
                receivedEntries.append(entry)
            } else {
                Issue.record("EntryChanged carried no entry: \(arguments)")
            }
        default:
            received.append(member)
        }
    }

    /// Runs the loop until everything the service has sent has reached the client: a ping answered
    /// by the service's connection itself, not the object (no refresh, no clock read).
    private func settle() throws {
        var pinged = false
        try client.send(
            Message.methodCall(
                destination: daemon.connection.uniqueName, path: "/", interface: "org.freedesktop.DBus.Peer",
                member: "Ping")
        ) { _ in pinged = true }
        try run(until: { pinged }, "a ping")
    }

    private func settleOrRecord() {
        do { try settle() } catch { Issue.record(error) }
    }

    private func run(until done: () -> Bool, _ what: String) throws {
        guard loop.run(until: done, timeout: .seconds(20)) || done() else {
            throw FixtureError("\(what): no answer within 20 s")
        }
    }
}

struct FixtureError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
