import DBusKit
import Foundation
import LinuxKit

/// Records the daemon's signals with DBusKit's `subscribe`, on its own thread and event loop.
///
/// Subscribed (match rules on the bus) before `init` returns, so a recorder started before the
/// daemon sees everything it emits, including anything at start-up.
public final class SignalRecorder: @unchecked Sendable {
    public struct Received: @unchecked Sendable {
        public let member: String
        public let sender: String
        public let arguments: [DBusValue]
        /// For `EntryChanged`: the entry.
        public var entry: [String: DBusValue] { arguments.first?.vardictValue ?? [:] }
    }

    private let lock = NSLock()
    private var received: [Received] = []
    private var stopping = false
    private var failure: String?
    private let finished = DispatchSemaphore(value: 0)

    public init(bus: PrivateBus) throws {
        let ready = DispatchSemaphore(value: 0)
        let address = bus.address
        let thread = Thread { [self] in
            self.run(address: address, ready: ready)
        }
        thread.start()
        ready.wait()
        if let failure = lock.withLock({ self.failure }) { throw HarnessError("signal recorder: \(failure)") }
    }

    private func run(address: String, ready: DispatchSemaphore) {
        defer { finished.signal() }
        let connection: Connection
        let loop = EventLoop()
        do {
            connection = try Connection(address: address)
            try loop.add(connection)
            for rule in [
                MatchRule(path: PetDaemon.path, interface: PetDaemon.interface),
                MatchRule(
                    path: PetDaemon.path, interface: "org.freedesktop.DBus.Properties", member: "PropertiesChanged"),
            ] {
                _ = try connection.subscribe(rule) { [self] message in
                    let record = Received(
                        member: message.member ?? "", sender: message.sender ?? "",
                        arguments: (try? message.arguments()) ?? [])
                    self.lock.withLock { self.received.append(record) }
                }
            }
        } catch {
            lock.withLock { failure = "\(error)" }
            ready.signal()
            return
        }
        ready.signal()
        while !lock.withLock({ stopping }) {
            _ = loop.run(until: { false }, timeout: .milliseconds(100))
            if !connection.isConnected { break }
        }
        loop.remove(connection)
        connection.close()
    }

    /// Stops the thread (idempotent).
    public func stop() {
        let first = lock.withLock { () -> Bool in
            defer { stopping = true }
            return !stopping
        }
        if first { finished.wait() }
    }

    deinit { stop() }

    /// Everything received so far, in order.
    public var all: [Received] { lock.withLock { received } }

    public func signals(_ member: String) -> [Received] { all.filter { $0.member == member } }

    public func count(_ member: String) -> Int { signals(member).count }

    /// Blocking `wait`, for `offPool` phases.
    @discardableResult
    public func waitBlocking(timeout: Duration = .seconds(10), until condition: ([Received]) -> Bool) -> Bool {
        pollBlocking(timeout: timeout) { condition(all) }
    }

    /// Waits (polling) until `condition` holds over the received signals, up to `timeout`; returns whether it did.
    @discardableResult
    public func wait(timeout: Duration = .seconds(10), until condition: ([Received]) -> Bool) async -> Bool {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if condition(all) { return true }
            try? await Task.sleep(for: .milliseconds(20))
        }
        return condition(all)
    }
}
