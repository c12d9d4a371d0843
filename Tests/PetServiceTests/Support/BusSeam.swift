import DBusKit
import Foundation
import LinuxKit
import PetBus
import TestSupport
import Testing

@testable import PetService

/// A `ServiceFixture`'s service on a real connection to a private bus, exported and hooked as the
/// daemon does it (`Daemon.publish`), and a client on the same bus. Both run on the test's thread,
/// in one event loop: the client's calls sit in the service's queue until the loop runs.
final class BusSeam {
    private let sandbox: Sandbox
    private let bus: PrivateBus
    private let server: Connection
    private let client: Connection
    private let loop = EventLoop()
    /// What the client received since the last `queued` began.
    private(set) var events: [String] = []
    /// The store writes made before the first reply of the last `queued` arrived.
    private(set) var writesAtFirstReply: [String]?
    private let outside: Outside

    init(service: PetService, outside: Outside) throws {
        self.outside = outside
        sandbox = try Sandbox("petservice-bus")
        bus = try PrivateBus(blockingIn: sandbox)
        server = try Connection(address: bus.address)
        client = try Connection(address: bus.address)
        outside.callsQueued = { [unowned server] in server.hasQueuedMessages }
        outside.bus = Daemon.signals(for: server, log: ServiceLog())
        guard try Daemon.publish(service, on: server, log: ServiceLog()) else { throw FixtureError("name taken") }
        for rule in [
            MatchRule(path: PetBus.path, interface: PetBus.interface),
            MatchRule(path: PetBus.path, interface: PropertiesInterface.name, member: "PropertiesChanged"),
        ] {
            _ = try client.subscribe(rule) { [unowned self] in events.append($0.member ?? "?") }
        }
        try loop.add(server)
        try loop.add(client)
    }

    func close() {
        loop.remove(client)
        loop.remove(server)
        client.close()
        server.close()
        sandbox.close()
    }

    /// Sends `calls` together, waits until the bus has passed them all on (a round trip to the bus
    /// itself, which handles the client's messages in order), then runs the loop until each is
    /// answered and everything the service sent before its last answer has arrived.
    func queued(_ calls: [(String, [DBusValue])]) throws -> [Result<[DBusValue], DBusError>] {
        events = []
        writesAtFirstReply = nil
        var replies: [Int: Result<[DBusValue], DBusError>] = [:]
        for (index, (member, arguments)) in calls.enumerated() {
            let message = try Message.methodCall(
                destination: PetBus.name, path: PetBus.path, interface: PetBus.interface, member: member)
            try message.append(arguments)
            try client.send(message, timeout: .seconds(20)) { [unowned self] reply in
                if writesAtFirstReply == nil { writesAtFirstReply = outside.writes }
                if let name = reply.errorName {
                    events.append("error \(member)")
                    replies[index] = .failure(DBusError(name: name, message: ""))
                } else {
                    events.append("reply \(member)")
                    replies[index] = Result { try reply.arguments() }.mapError { _ in DBusError.failed("bad reply") }
                }
            }
        }
        _ = try client.call(
            Message.methodCall(
                destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus", interface: "org.freedesktop.DBus",
                member: "GetId"))
        _ = loop.run(until: { replies.count == calls.count }, timeout: .seconds(20))
        // A ping answered by the connection itself, not the object (no refresh): everything the
        // service sent before it has reached the client once its answer has.
        var pinged = false
        try client.send(
            Message.methodCall(
                destination: server.uniqueName, path: "/", interface: "org.freedesktop.DBus.Peer", member: "Ping")
        ) { _ in pinged = true }
        _ = loop.run(until: { pinged }, timeout: .seconds(20))
        return try (0..<calls.count).map { try #require(replies[$0], "call \($0) got no answer") }
    }
}
