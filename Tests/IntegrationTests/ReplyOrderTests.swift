import DBusKit
import Foundation
import LinuxKit
import TestSupport
import Testing

/// On one client connection, the reply to a call arrives before the signals the call caused, and
/// after the signals time caused first (a tick found due while refreshing before the call).
/// Literal names throughout: this checks the daemon from outside.
@Suite("Reply order")
struct ReplyOrderTests {
    /// Sends one call on a fresh connection subscribed to the daemon's signals, runs its loop until
    /// `count` events (the reply and signals) arrived, and returns them in arrival order.
    /// `whileWaiting` runs after the call is sent (e.g. to resume a stopped daemon).
    static func events(
        bus: PrivateBus, interface: String, member: String, _ arguments: [DBusValue], count: Int,
        whileWaiting: @escaping @Sendable () -> Void = {}
    ) async throws -> [String] {
        try await events(
            bus: bus, calls: [Call(interface, member, arguments)], count: count, whileWaiting: whileWaiting)
    }

    /// Waits for a reply from the started daemon: its start-up signals (the first tick's
    /// PropertiesChanged) leave before it, so none of them can reach a subscription made after it,
    /// nor wait in a stopped daemon's queue to be taken for a call's.
    static func settled(_ world: World) throws {
        _ = try world.client().tasks()
    }

    /// One method call of the daemon's object.
    struct Call: Sendable {
        let interface: String
        let member: String
        let arguments: [DBusValue]

        init(_ interface: String, _ member: String, _ arguments: [DBusValue]) {
            (self.interface, self.member, self.arguments) = (interface, member, arguments)
        }
    }

    /// `events` for several calls, sent one after another without waiting for their replies.
    static func events(
        bus: PrivateBus, calls: [Call], count: Int, whileWaiting: @escaping @Sendable () -> Void = {}
    ) async throws -> [String] {
        let address = bus.address
        return try await offPool {
            let connection = try Connection(address: address)
            defer { connection.close() }
            let loop = EventLoop()
            try loop.add(connection)
            var seen: [String] = []
            for rule in [
                MatchRule(path: "/io/petprogress/PetProgress1", interface: "io.petprogress.PetProgress1"),
                MatchRule(
                    path: "/io/petprogress/PetProgress1", interface: "org.freedesktop.DBus.Properties",
                    member: "PropertiesChanged"),
            ] {
                _ = try connection.subscribe(rule) { seen.append($0.member ?? "?") }
            }
            for call in calls {
                let message = try Message.methodCall(
                    destination: "io.petprogress.PetProgress1", path: "/io/petprogress/PetProgress1",
                    interface: call.interface, member: call.member)
                try message.append(call.arguments)
                try connection.send(message, timeout: .seconds(20)) { reply in
                    seen.append(reply.kind == .methodReturn ? "reply" : "error \(reply.errorName ?? "")")
                }
            }
            connection.flush()
            whileWaiting()
            _ = loop.run(until: { seen.count >= count }, timeout: .seconds(20))
            // Anything more that the call caused would follow at once.
            _ = loop.run(until: { false }, timeout: .milliseconds(300))
            return seen
        }
    }

    @Test("a mutation: the reply, then TasksChanged and PropertiesChanged")
    func mutation() async throws {
        let world = try await World("order-mutation")
        defer { world.close() }
        _ = try await world.daemon(now: "2026-03-02T10:30:00+01:00")
        try Self.settled(world)
        let seen = try await Self.events(
            bus: world.bus, interface: "io.petprogress.PetProgress1", member: "AddTask",
            [.string("Write report"), .string("14:30")], count: 3)
        #expect(seen == ["reply", "TasksChanged", "PropertiesChanged"])
    }

    @Test("a property Set: the reply, then PropertiesChanged")
    func propertySet() async throws {
        let world = try await World("order-set")
        defer { world.close() }
        _ = try await world.daemon(now: "2026-03-02T10:30:00+01:00")
        try Self.settled(world)
        let seen = try await Self.events(
            bus: world.bus, interface: "org.freedesktop.DBus.Properties", member: "Set",
            [.string("io.petprogress.PetProgress1"), .string("GraceMinutes"), .variant(.uint32(30))], count: 2)
        #expect(seen == ["reply", "PropertiesChanged"])
    }

    /// The daemon is stopped (SIGSTOP) some simulated seconds before a tick, the call is sent, and
    /// it is resumed after the tick: whichever of the timer and the call reaches the tick first, the
    /// tick's signals precede the reply and the call's own signals follow it.
    @Test("a call that crosses a tick: the tick's signals, the reply, then the call's signals")
    func crossingATick() async throws {
        let world = try await World("order-tick")
        defer { world.close() }
        let started = ContinuousClock.now
        // 14 s before the tick (the call waits 20 s for its reply): a start on a busy machine
        // (make test runs suites side by side) must not reach it before the daemon is stopped.
        let daemon = try await world.daemon(now: "2026-03-02T10:59:46+01:00")
        try Self.settled(world)
        daemon.process.send(SIGSTOP)
        let process = daemon.process
        let seen = try await Self.events(
            bus: world.bus, interface: "io.petprogress.PetProgress1", member: "AddTask",
            [.string("Email"), .string("16:00")], count: 5,
            whileWaiting: {
                // Resume once the simulated clock (which runs on while stopped) is past 11:00.
                while ContinuousClock.now - started < .seconds(16) { usleep(50_000) }
                process.send(SIGCONT)
            })
        #expect(seen == ["PropertiesChanged", "EntryChanged", "reply", "TasksChanged", "PropertiesChanged"])
    }

    /// The daemon is stopped while the calls are sent, so they wait in its queue and are answered
    /// as one batch (group commit): still each reply, then the signals its call caused, in order.
    @Test("calls queued behind one another: each reply, then its call's signals, in the order sent")
    func queuedCalls() async throws {
        let world = try await World("order-queued")
        defer { world.close() }
        let daemon = try await world.daemon(now: "2026-03-02T10:30:00+01:00")
        try Self.settled(world)
        daemon.process.send(SIGSTOP)
        let process = daemon.process
        let ours = "io.petprogress.PetProgress1"
        let seen = try await Self.events(
            bus: world.bus,
            calls: [
                Call(ours, "AddTask", [.string("Walk"), .string("14:00")]),
                Call(ours, "GetWidgetEntry", []),
                Call(ours, "AddTask", [.string("Read"), .string("15:00")]),
                Call(ours, "MarkDone", [.string("no-such-task")]),
                Call(
                    "org.freedesktop.DBus.Properties", "Set",
                    [.string(ours), .string("GraceMinutes"), .variant(.uint32(30))]),
                Call(ours, "AddTask", [.string("Cook"), .string("18:00")]),
            ], count: 15,
            whileWaiting: {
                usleep(300_000)
                process.send(SIGCONT)
            })
        let changed = ["reply", "TasksChanged", "PropertiesChanged"]
        // The grace moves the pending tasks' overdue instants: the task part's signals, then the setting's.
        let expected: [[String]] = [
            changed, ["reply"], changed, ["error \(ours).Error.NotFound"], changed, ["PropertiesChanged"], changed,
        ]
        #expect(seen == Array(expected.joined()))
        #expect(try world.client().tasks().map { $0.string("title") } == ["Walk", "Read", "Cook"])
    }

    @Test("a call flagged NO_REPLY_EXPECTED (dbus-send without --print-reply) still emits its signals")
    func noReplyExpected() async throws {
        let world = try await World("order-noreply")
        defer { world.close() }
        _ = try await world.daemon(now: "2026-03-02T10:30:00+01:00")
        try Self.settled(world)
        let recorder = try SignalRecorder(bus: world.bus)
        defer { recorder.stop() }
        let sent = try await world.sandbox.run(
            "dbus-send",
            [
                "--bus=\(world.bus.address)", "--type=method_call", "--dest=io.petprogress.PetProgress1",
                "/io/petprogress/PetProgress1",
                "io.petprogress.PetProgress1.AddTask", "string:Walk", "string:18:00",
            ], environment: world.bus.environment)
        #expect(sent.status == 0 && sent.output.isEmpty, "\(sent)")
        #expect(await recorder.wait { $0.contains { $0.member == "TasksChanged" } })
        #expect(try world.client().tasks().map { $0.string("title") } == ["Walk"])
    }
}
