import DBusKit
import Foundation
import LinuxKit
import TestSupport
import Testing

extension DBusKitSuites {
    /// Names, timeouts, invalid input and the bus going away.
    @Suite("Connections")
    struct ConnectionTests {
        @Test func nameAlreadyTakenIsATypedError() throws {
            let fixture = try BusFixture()
            let other = try Connection(address: fixture.bus.address)
            #expect(throws: NameRequestError.taken(TestServiceProcess.name)) {
                try other.requestName(TestServiceProcess.name)
            }
            #expect(throws: NameRequestError.invalidName("not..valid")) { try other.requestName("not..valid") }
            try other.requestName("org.example.Second")
            #expect(try fixture.client.nameHasOwner("org.example.Second"))

            let second = try TestServiceProcess(bus: fixture.bus)
            #expect(!second.isReady)
            #expect(second.child.reap(blocking: true) == 3)
            #expect(second.child.errors.contains("already owned"))
        }

        @Test func callTimesOutWithNoReply() throws {
            let fixture = try BusFixture()
            // Owns a name but never dispatches, so calls to it are never answered.
            let silent = try Connection(address: fixture.bus.address)
            try silent.requestName("org.example.Silent")
            try expectError(DBusError.Name.noReply) {
                _ = try fixture.client.call(
                    destination: "org.example.Silent", path: "/x", interface: "org.example.X",
                    member: "M", timeout: .milliseconds(300))
            }
        }

        @Test func killedBusEndsTheLoopWithDisconnection() throws {
            let fixture = try BusFixture()
            var notified = false
            fixture.client.onDisconnect { notified = true }
            fixture.bus.process.killNow()
            #expect(fixture.loop.run() == .disconnected)
            #expect(notified)
            #expect(!fixture.client.isConnected)
            #expect(throws: DBusError.disconnected) {
                try fixture.client.emitSignal(path: "/x", interface: "a.b", name: "C")
            }
            // The service saw the same and exited through its own path (status 4), not libdbus's _exit(1).
            #expect(fixture.service.child.reap(blocking: true) == 4)
            #expect(fixture.service.child.errors.contains("disconnected from the bus"))
        }

        @Test func ownFDsRunOnTheLoop() throws {
            let sandbox = try Sandbox("dbuskit")
            defer { sandbox.close() }
            let bus = try PrivateBus(blockingIn: sandbox)
            let connection = try Connection(address: bus.address)
            let loop = EventLoop()
            try loop.add(connection)
            let timer = try TimerFD(clock: .monotonic)
            try timer.arm(after: .milliseconds(20), interval: .milliseconds(20))
            var fired: UInt64 = 0
            let token = loop.addFD(timer.fd) { _ in
                if case .expired(let count) = timer.read() { fired += count }
                if fired >= 3 { loop.stop() }
            }
            #expect(loop.run() == .stopped)
            #expect(fired >= 3)
            loop.removeFD(token)
            #expect(!connection.uniqueName.isEmpty)
        }

        /// A handler's signals (and Properties.Set's PropertiesChanged) go out after its reply; an
        /// asynchronous call's reply is handed over on the loop in arrival order.
        @Test func repliesComeBeforeTheSignalsTheirCallsCaused() throws {
            let fixture = try BusFixture()
            var seen: [String] = []
            for member in ["Pinged", "PropertiesChanged"] {
                _ = try fixture.client.subscribe(MatchRule(member: member)) { seen.append($0.member ?? "?") }
            }
            func call(_ interface: String, _ member: String, _ arguments: [DBusValue]) throws {
                let message = try Message.methodCall(
                    destination: TestServiceProcess.name, path: TestServiceProcess.path, interface: interface,
                    member: member)
                try message.append(arguments)
                try fixture.client.send(message) { reply in seen.append(reply.kind == .methodReturn ? "reply" : "error")
                }
            }
            try call(TestServiceProcess.interface, "EmitPing", [.string("x")])
            #expect(fixture.loop.run(until: { seen.count == 2 }, timeout: .seconds(10)))
            try call(
                "org.freedesktop.DBus.Properties", "Set",
                [
                    .string(TestServiceProcess.interface), .string("Label"), .variant(.string("new")),
                ])
            #expect(fixture.loop.run(until: { seen.count == 4 }, timeout: .seconds(10)))
            #expect(seen == ["reply", "Pinged", "reply", "PropertiesChanged"])
        }

        /// Calls sent together come back in order, an error reply among them as a message.
        @Test func callsSentTogetherAnswerInOrder() throws {
            let fixture = try BusFixture()
            func call(_ member: String, _ arguments: [DBusValue]) throws -> Message {
                let message = try Message.methodCall(
                    destination: TestServiceProcess.name, path: TestServiceProcess.path,
                    interface: TestServiceProcess.interface, member: member)
                try message.append(arguments)
                return message
            }
            let replies = try fixture.client.call(
                all: [
                    try call("EchoString", [.string("one")]),
                    try call("Fail", [.string("org.example.Oops"), .string("no")]),
                    try call("EchoString", [.string("three")]),
                ], timeout: .seconds(10))
            #expect(try replies.map { try $0.arguments().first?.stringValue } == ["one", "no", "three"])
            #expect(replies.map(\.error?.name) == [nil, "org.example.Oops", nil])
        }

        @Test func connectingToNothingIsAnError() throws {
            #expect(throws: DBusError.self) { _ = try Connection(address: "unix:path=/nonexistent/bus") }
            #expect(throws: DBusError.self) { _ = try Connection(address: "not an address") }
        }
    }
}
