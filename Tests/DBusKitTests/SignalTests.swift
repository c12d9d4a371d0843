import DBusKit
import Foundation
import TestSupport
import Testing

extension DBusKitSuites {
    /// Signals: subscription through match rules, and a signal sent from a timerfd with no bus traffic.
    @Suite("Signals")
    struct SignalTests {
        @Test func signalFromTimerFDArrivesWithoutOtherTraffic() throws {
            let fixture = try BusFixture()
            var ticks: [UInt64] = []
            _ = try fixture.client.subscribe(MatchRule(interface: TestServiceProcess.interface, member: "Tick")) {
                message in
                if let due = (try? message.arguments())?.first?.uint64Value { ticks.append(due) }
            }
            let due = try #require(try fixture.call("ArmTimer", [.uint32(300)]).first?.uint64Value)
            // From here on nothing is sent to the service: only its timerfd can make it speak.
            #expect(fixture.loop.run(until: { !ticks.isEmpty }, timeout: .seconds(15)))
            #expect(ticks == [due])
        }

        @Test func subscribeAndUnsubscribe() throws {
            let fixture = try BusFixture()
            var pings: [String] = []
            let subscription = try fixture.client.subscribe(
                MatchRule(path: TestServiceProcess.path, interface: TestServiceProcess.interface, member: "Pinged")
            ) { message in
                if let text = (try? message.arguments())?.first?.stringValue { pings.append(text) }
            }
            var others = 0
            _ = try fixture.client.subscribe(MatchRule(interface: TestServiceProcess.interface, member: "Tick")) { _ in
                others += 1
            }
            _ = try fixture.call("EmitPing", [.string("one")])
            _ = try fixture.call("EmitPing", [.string("two")])
            #expect(fixture.loop.run(until: { pings.count == 2 }, timeout: .seconds(10)))
            #expect(pings == ["one", "two"])
            #expect(others == 0)

            try fixture.client.unsubscribe(subscription)
            _ = try fixture.call("EmitPing", [.string("three")])
            _ = try fixture.call("ArmTimer", [.uint32(1)])
            #expect(fixture.loop.run(until: { others == 1 }, timeout: .seconds(10)))
            #expect(pings == ["one", "two"])
        }

        @Test func signalsFromCLIToolsReachSubscribers() throws {
            let fixture = try BusFixture()
            var received: [String] = []
            _ = try fixture.client.subscribe(MatchRule(interface: "org.example.Outside", member: "Said")) { message in
                if let text = (try? message.arguments())?.first?.stringValue { received.append(text) }
            }
            // dbus-send, not `gdbus emit`: gdbus 2.74 sends the signal before its Hello completes, and the bus drops it.
            let emit = try runTool(
                "dbus-send",
                [
                    "--bus=\(fixture.bus.address)", "--type=signal", "/org/example/Outside",
                    "org.example.Outside.Said", "string:hi",
                ])
            #expect(emit.status == 0, "\(emit.errors)")
            #expect(fixture.loop.run(until: { !received.isEmpty }, timeout: .seconds(10)))
            #expect(received == ["hi"])
        }

        /// A unicast signal reaches its destination whatever its match rules say: a rule naming a
        /// sender takes it only from that sender (a well-known name through its current owner,
        /// the bus's own name as the bus sets it).
        @Test func aRuleWithASenderIgnoresOtherConnections() throws {
            let fixture = try BusFixture()
            var pings: [String] = []
            _ = try fixture.client.subscribe(
                MatchRule(
                    sender: TestServiceProcess.name, path: TestServiceProcess.path,
                    interface: TestServiceProcess.interface, member: "Pinged")
            ) { message in
                if let text = (try? message.arguments())?.first?.stringValue { pings.append(text) }
            }
            var owners: [String] = []
            _ = try fixture.client.subscribe(
                MatchRule(
                    sender: "org.freedesktop.DBus", path: "/org/freedesktop/DBus", interface: "org.freedesktop.DBus",
                    member: "NameOwnerChanged", arg0: TestServiceProcess.name)
            ) { message in owners.append((try? message.argument(at: 2))?.stringValue ?? "?") }
            let me = fixture.client.uniqueName
            for spoof in [
                [TestServiceProcess.path, "\(TestServiceProcess.interface).Pinged", "string:spoofed"],
                [
                    "/org/freedesktop/DBus", "org.freedesktop.DBus.NameOwnerChanged",
                    "string:\(TestServiceProcess.name)", "string::1.999", "string:",
                ],
            ] {
                let sent = try runTool(
                    "dbus-send", ["--bus=\(fixture.bus.address)", "--type=signal", "--dest=\(me)"] + spoof)
                #expect(sent.status == 0, "\(sent.errors)")
            }
            _ = try fixture.call("EmitPing", [.string("real")])
            #expect(fixture.loop.run(until: { !pings.isEmpty }, timeout: .seconds(10)))
            // Give a spoof that would have arrived after the real signal its chance.
            _ = fixture.loop.run(until: { false }, timeout: .milliseconds(200))
            #expect(pings == ["real"])
            #expect(owners.isEmpty)
        }
    }
}
