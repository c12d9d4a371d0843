import DBusKit
import Foundation
import LinuxKit
import TestSupport
import Testing

extension DBusKitSuites {
    /// Group commit (`ExportedObject.Batching`): calls queued behind one another are answered
    /// together, and nothing they cause leaves the connection before the object's `close` kept it.
    /// A server in this process records what it made durable; the client checks it on every reply
    /// and signal it receives, on the real bus.
    @Suite("Batches")
    struct BatchTests {
        @Test("queued calls form a batch; no reply or signal leaves before its close; order as alone")
        func queuedCallsAnsweredTogether() throws {
            let fixture = try BatchFixture()
            defer { fixture.close() }
            let seen = try fixture.sendQueued(count: 24)
            #expect(seen == BatchFixture.expected(count: 24))
            let ledger = fixture.ledger.snapshot
            #expect(ledger.durable == Array(0..<24), "each change kept exactly once, in order")
            #expect(
                ledger.batches.contains { $0 > 1 }, "calls queued behind a slow one were batched: \(ledger.batches)")
            #expect(ledger.handled == Array(0..<24), "each call handled once")
            #expect(fixture.ledger.early.isEmpty, "sent before its close: \(fixture.ledger.early)")
        }

        @Test("a lone call opens no batch")
        func loneCallUnbatched() throws {
            let fixture = try BatchFixture()
            defer { fixture.close() }
            for value in 0..<3 {
                #expect(try fixture.client.call(fixture.record(Int32(value))).arguments() == [.int32(Int32(value))])
            }
            let ledger = fixture.ledger.snapshot
            #expect(ledger.batches == [])
            #expect(ledger.durable == [0, 1, 2])
        }

        @Test("a batch whose close fails is dropped and each call is handled again on its own")
        func failedCloseHandlesEachCallAgain() throws {
            let fixture = try BatchFixture()
            defer { fixture.close() }
            fixture.ledger.failNextClose()
            let seen = try fixture.sendQueued(count: 24)
            #expect(seen == BatchFixture.expected(count: 24), "one reply and one signal per call, in order")
            let ledger = fixture.ledger.snapshot
            #expect(ledger.durable == Array(0..<24), "nothing kept twice, nothing lost")
            #expect(ledger.failed > 1, "the failed batch held several calls: \(ledger)")
            #expect(ledger.handled.count == 24 + ledger.failed, "the failed batch's calls ran twice")
            #expect(fixture.ledger.early.isEmpty, "sent before its close: \(fixture.ledger.early)")
        }
    }
}

/// What the server made durable, shared with the client's thread.
private final class Ledger: @unchecked Sendable {
    struct Snapshot {
        var durable: [Int32] = []
        var handled: [Int32] = []
        var batches: [Int] = []
        var failed = 0
        var failNext = false
    }
    private let lock = NSLock()
    private var state = Snapshot()
    /// What the client received before the server had kept it.
    private(set) var early: [String] = []

    var snapshot: Snapshot { lock.withLock { state } }
    func failNextClose() { lock.withLock { state.failNext = true } }
    func handled(_ value: Int32) { lock.withLock { state.handled.append(value) } }
    func keep(_ values: [Int32]) { lock.withLock { state.durable += values } }

    /// A batch closed with `values`: kept, unless a failure was asked for (for the first batch
    /// that holds any: one of the slow call alone would test nothing).
    func close(_ values: [Int32]) -> Bool {
        lock.withLock {
            if state.failNext, !values.isEmpty {
                state.failNext = false
                state.failed = values.count
                return false
            }
            state.durable += values
            state.batches.append(values.count)
            return true
        }
    }

    /// The client received `what` about `value`: it must already be durable.
    func received(_ what: String, _ value: Int32) {
        lock.withLock {
            if !state.durable.contains(value) { early.append("\(what) \(value)") }
        }
    }
}

/// A private bus, a batching server on its own thread and event loop, and a client.
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
                try server.export(Self.object(server, ledger))
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
        if let failure = problem.withLock({ failure }) { throw HarnessError("batching server: \(failure)") }
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

    /// The server's object: `Record(i)` keeps `i` (at once alone, at the batch's close in a
    /// batch), replies `i` and emits `Recorded(i)`; `Sleep(ms)` lets calls queue up behind it.
    static func object(_ server: Connection, _ ledger: Ledger) throws -> ExportedObject {
        var pending: [Int32]?
        let record = ExportedObject.Method("Record", in: "i", out: "i") { [unowned server] call in
            let value = try call.int32(0)
            ledger.handled(value)
            if pending != nil { pending?.append(value) } else { ledger.keep([value]) }
            try server.emitSignal(path: path, interface: interface, name: "Recorded", arguments: [.int32(value)])
            return [.int32(value)]
        }
        let sleep = ExportedObject.Method("Sleep", in: "u", out: "") { call in
            usleep(try call.uint32(0) * 1000)
            return []
        }
        return try ExportedObject(
            path: path, interfaces: [.init(interface, methods: [record, sleep])], introspectionXML: "<node/>",
            batching: .init(
                open: { pending = [] },
                close: {
                    defer { pending = nil }
                    return ledger.close(pending ?? [])
                }))
    }

    func record(_ value: Int32) throws -> Message {
        try call("Record", [.int32(value)])
    }

    private func call(_ member: String, _ arguments: [DBusValue]) throws -> Message {
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

    static func expected(count: Int) -> [String] {
        (0..<count).flatMap { ["reply \($0)", "signal \($0)"] }
    }
}
