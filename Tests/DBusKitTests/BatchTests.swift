import DBusKit
import Foundation
import LinuxKit
import TestSupport
import Testing

extension DBusKitSuites {
    /// The hooks an owner builds group commit on: a handler may defer its reply
    /// (`MethodCall.deferReply`, answered later through a `PendingReply`, exactly once), and the
    /// connection says when the incoming queue is drained (`onDrained`) and whether more calls wait
    /// (`hasQueuedMessages`). The server in this process holds the replies and signals of queued
    /// calls and keeps their values once the queue drains; the client checks, on every reply and
    /// signal it receives on the real bus, that it was kept first.
    @Suite("Deferred replies")
    struct BatchTests {
        @Test("queued calls defer their replies; sent after the queue drains, in order, each once")
        func queuedCallsAnsweredTogether() throws {
            let fixture = try BatchFixture()
            defer { fixture.close() }
            let seen = try fixture.sendQueued(count: 24)
            #expect(seen == BatchFixture.expected(count: 24))
            let ledger = fixture.ledger.snapshot
            #expect(ledger.durable == Array(0..<24), "each value kept exactly once, in order")
            #expect(
                ledger.batches.contains { $0 > 1 }, "calls queued behind a slow one were held: \(ledger.batches)")
            #expect(ledger.handled == Array(0..<24), "each call handled once")
            #expect(ledger.secondSends == 0, "every deferred reply sent exactly once")
            #expect(fixture.ledger.early.isEmpty, "sent before the queue drained: \(fixture.ledger.early)")
        }

        @Test("a lone call finds nothing queued and is answered at once")
        func loneCallUnbatched() throws {
            let fixture = try BatchFixture()
            defer { fixture.close() }
            for value in 0..<3 {
                #expect(try fixture.client.call(fixture.record(Int32(value))).arguments() == [.int32(Int32(value))])
            }
            let ledger = fixture.ledger.snapshot
            #expect(ledger.batches == [])
            #expect(ledger.durable == [0, 1, 2])
            #expect(ledger.drained >= 3, "the drained hook ran after each call: \(ledger.drained)")
        }

        @Test("a deferred reply is sent once: a second send is refused, a dropped one answers Failed")
        func exactlyOnce() throws {
            let fixture = try BatchFixture()
            defer { fixture.close() }
            let twice = try fixture.client.call(fixture.call("Twice", [.int32(7)]))
            #expect(try twice.arguments() == [.int32(7)])
            #expect(try BatchFixture.errorName { try fixture.client.call(fixture.call("Drop", [])) } == failedName)
            // Read after a later call: the server refused the second send before handling it.
            #expect(fixture.ledger.snapshot.secondSends == 1, "the second send was refused")
            // Nothing else arrives for either call.
            var stray = 0
            let rule = MatchRule(interface: BatchFixture.interface)
            _ = try fixture.client.subscribe(rule) { _ in stray += 1 }
            _ = fixture.loop.run(until: { false }, timeout: .milliseconds(300))
            #expect(stray == 0)
        }

        @Test("a handler that returns deferred without taking the reply answers Failed")
        func deferredWithoutTaking() throws {
            let fixture = try BatchFixture()
            defer { fixture.close() }
            #expect(try BatchFixture.errorName { try fixture.client.call(fixture.call("Untaken", [])) } == failedName)
        }
    }
}

private let failedName = "org.freedesktop.DBus.Error.Failed"

/// What the server made durable, shared with the client's thread.
private final class Ledger: @unchecked Sendable {
    struct Snapshot {
        var durable: [Int32] = []
        var handled: [Int32] = []
        var batches: [Int] = []
        var drained = 0
        var secondSends = 0
    }
    private let lock = NSLock()
    private var state = Snapshot()
    /// What the client received before the server had kept it.
    private(set) var early: [String] = []

    var snapshot: Snapshot { lock.withLock { state } }
    func handled(_ value: Int32) { lock.withLock { state.handled.append(value) } }
    func keep(_ values: [Int32]) { lock.withLock { state.durable += values } }
    func drained() { lock.withLock { state.drained += 1 } }
    func secondSend() { lock.withLock { state.secondSends += 1 } }

    /// The held values, kept together when the queue drained.
    func keepHeld(_ values: [Int32]) {
        lock.withLock {
            state.durable += values
            state.batches.append(values.count)
        }
    }

    /// The client received `what` about `value`: it must already be durable.
    func received(_ what: String, _ value: Int32) {
        lock.withLock {
            if !state.durable.contains(value) { early.append("\(what) \(value)") }
        }
    }
}

/// A private bus, a server holding queued calls on its own thread and event loop, and a client.
private final class BatchFixture: @unchecked Sendable {
    static let name = "org.example.Batches"
    static let path = "/org/example/Batches"
    static let interface = "org.example.Batches1"

    let sandbox: Sandbox
    let bus: PrivateBus
    let ledger = Ledger()
    let client: Connection
    let loop = EventLoop()
    private let stopPipe: [Int32]
    private let done = DispatchSemaphore(value: 0)

    init() throws {
        sandbox = try Sandbox("batches")
        bus = try PrivateBus(blockingIn: sandbox)
        var fds: [Int32] = [0, 0]
        guard pipe(&fds) == 0 else { throw HarnessError("pipe failed") }
        stopPipe = fds
        let ready = DispatchSemaphore(value: 0)
        let problem = NSLock()
        nonisolated(unsafe) var failure: String?
        let address = bus.address
        let ledger = ledger
        let stopReader = fds[0]
        Thread { [done] in
            defer { done.signal() }
            do {
                let server = try Connection(address: address)
                defer { server.close() }
                try Self.serve(server, ledger)
                try server.requestName(Self.name)
                let loop = EventLoop()
                try loop.add(server)
                loop.addFD(stopReader) { _ in loop.stop() }
                ready.signal()
                _ = loop.run()
            } catch {
                problem.withLock { failure = "\(error)" }
                ready.signal()
            }
        }.start()
        ready.wait()
        if let failure = problem.withLock({ failure }) { throw HarnessError("deferring server: \(failure)") }
        client = try Connection(address: bus.address)
        try loop.add(client)
    }

    func close() {
        _ = write(stopPipe[1], "x", 1)
        done.wait()
        loop.remove(client)
        client.close()
        Glibc.close(stopPipe[0])
        Glibc.close(stopPipe[1])
        sandbox.close()
    }

    /// The server's object. `Record(i)` replies `i` and emits `Recorded(i)`: alone, it keeps `i`
    /// at once; with more calls queued behind it (or a run already held), it defers its reply and
    /// holds its signal until the queue drains, when the run's values are kept together and its
    /// replies and signals sent in order. `Sleep(ms)` lets calls queue up behind it; `Twice(i)`
    /// answers `i` through its deferred reply twice; `Drop` defers and drops it; `Untaken`
    /// returns `.deferred` without taking the reply.
    static func serve(_ server: Connection, _ ledger: Ledger) throws {
        var held: [(reply: PendingReply, value: Int32)]?
        let record = ExportedObject.Method("Record", in: "i", out: "i") {
            [unowned server] (call: MethodCall) throws -> ExportedObject.Reply in
            let value = try call.int32(0)
            ledger.handled(value)
            guard held != nil || server.hasQueuedMessages else {
                ledger.keep([value])
                try server.emitSignal(path: path, interface: interface, name: "Recorded", arguments: [.int32(value)])
                return .values([.int32(value)])
            }
            held = (held ?? []) + [(call.deferReply(), value)]
            return .deferred
        }
        let sleep = ExportedObject.Method("Sleep", in: "u", out: "") { call in
            usleep(try call.uint32(0) * 1000)
            return []
        }
        let twice = ExportedObject.Method("Twice", in: "i", out: "i") {
            (call: MethodCall) throws -> ExportedObject.Reply in
            let reply = call.deferReply()
            let value = try call.int32(0)
            reply.send(.success(.values([.int32(value)])))
            if !reply.send(.success(.values([.int32(value + 1)]))) { ledger.secondSend() }
            return .deferred
        }
        let drop = ExportedObject.Method("Drop", in: "", out: "") { (call: MethodCall) throws -> ExportedObject.Reply in
            _ = call.deferReply()
            return .deferred
        }
        let untaken = ExportedObject.Method("Untaken", in: "", out: "") {
            (_: MethodCall) throws -> ExportedObject.Reply in .deferred
        }
        server.onDrained { [unowned server] in
            ledger.drained()
            guard let run = held else { return }
            held = nil
            ledger.keepHeld(run.map(\.value))
            for (reply, value) in run {
                reply.send(.success(.values([.int32(value)])))
                try? server.emitSignal(path: path, interface: interface, name: "Recorded", arguments: [.int32(value)])
            }
        }
        try server.export(
            ExportedObject(
                path: path, interfaces: [.init(interface, methods: [record, sleep, twice, drop, untaken])],
                introspectionXML: "<node/>"))
    }

    func record(_ value: Int32) throws -> Message {
        try call("Record", [.int32(value)])
    }

    func call(_ member: String, _ arguments: [DBusValue]) throws -> Message {
        let message = try Message.methodCall(
            destination: Self.name, path: Self.path, interface: Self.interface, member: member)
        try message.append(arguments)
        return message
    }

    /// A slow call, then `count` calls sent at once behind it (so they wait in the server's queue);
    /// what the client received, in order: `reply i` and `signal i`.
    func sendQueued(count: Int) throws -> [String] {
        var seen: [String] = []
        _ = try client.subscribe(MatchRule(interface: Self.interface, member: "Recorded")) { [ledger] message in
            guard let value = (try? message.arguments())?.first?.int32Value else { return }
            ledger.received("signal", value)
            seen.append("signal \(value)")
        }
        try client.send(try call("Sleep", [.uint32(300)])) { _ in }
        for value in 0..<Int32(count) {
            try client.send(try record(value)) { [ledger] reply in
                let answered = (try? reply.arguments())?.first?.int32Value ?? -1
                ledger.received("reply", answered)
                seen.append("reply \(answered)")
            }
        }
        _ = loop.run(until: { seen.count == 2 * count }, timeout: .seconds(20))
        return seen
    }

    /// The name of the error `body` throws; nil when it succeeds.
    static func errorName(_ body: () throws -> Message) throws -> String? {
        do {
            _ = try body()
            return nil
        } catch let error as DBusError {
            return error.name
        }
    }

    static func expected(count: Int) -> [String] {
        (0..<count).flatMap { ["reply \($0)", "signal \($0)"] }
    }
}
