import DBusKit
import Foundation
import LinuxKit
import PetCore
import PetStore
import TestSupport
import Testing

@testable import PetService

/// One incoming message → one clock read → one refresh, whatever the member (petprogress(7) §3.2):
/// the daemon, composed as `main` composes it, runs in this process on a private bus with a clock
/// that counts its reads.
@Suite("Clock reads")
struct ClockReadTests {
    /// The counting clock, read on the service's thread and checked on the test's.
    final class CountingClock: @unchecked Sendable {
        private let lock = NSLock()
        private var count = 0
        let instant = unix("2026-03-02T08:10:00Z")

        func read() -> Instant {
            lock.withLock { count += 1 }
            return instant
        }

        var reads: Int { lock.withLock { count } }
    }

    /// The service on its own thread and event loop until `stop`.
    final class InProcessService: @unchecked Sendable {
        private let stopPipe: [Int32]
        private let done = DispatchSemaphore(value: 0)

        init(bus: PrivateBus, directory: String, clock: CountingClock) throws {
            var fds: [Int32] = [0, 0]
            guard pipe(&fds) == 0 else { throw HarnessError("pipe failed") }
            stopPipe = fds
            let stopReader = fds[0]
            let ready = DispatchSemaphore(value: 0)
            let failure = NSLock()
            nonisolated(unsafe) var problem: String?
            let address = bus.address
            Thread { [self] in
                defer { done.signal() }
                do {
                    let daemon = try Daemon.compose(
                        Daemon.Setup(
                            dataDirectory: directory, connect: { try Connection(address: address) },
                            now: clock.read, localZone: { .utc }, stages: { (.builtIn, nil) },
                            icons: { IconLocator(stages: $0, environment: [:], executable: "/nonexistent") },
                            write: { _, perform throws(StoreError) in try perform() }, wake: { _ in },
                            log: ServiceLog().callAsFunction))
                    let loop = EventLoop()
                    try loop.add(daemon.connection)
                    loop.addFD(stopReader) { _ in loop.stop() }
                    ready.signal()
                    _ = loop.run()
                    daemon.close()
                } catch {
                    failure.withLock { problem = "\(error)" }
                    ready.signal()
                }
            }.start()
            ready.wait()
            if let problem = failure.withLock({ problem }) { throw HarnessError("in-process service: \(problem)") }
        }

        func stop() {
            _ = write(stopPipe[1], "x", 1)
            done.wait()
            close(stopPipe[0])
            close(stopPipe[1])
        }
    }

    @Test("every kind of message reads the clock exactly once")
    func oneReadPerMessage() async throws {
        let world = try await World("clockreads")
        defer { world.close() }
        let clock = CountingClock()
        let service = try InProcessService(bus: world.bus, directory: world.sandbox.path("data"), clock: clock)
        defer { service.stop() }
        let client = try world.client()
        let calls: [(String, () throws -> Void)] = [
            ("GetWidgetEntry", { _ = try client.entry() }),
            ("AddTask", { _ = try client.addTask("Walk", "09:00") }),
            ("AddTask rejected", { _ = client.errorName("AddTask", [.string("x"), .string("25:00")]) }),
            ("MarkNextDone", { try client.call("MarkNextDone") }),
            ("wrong signature", { _ = client.errorName("MarkDone", [.int32(1)]) }),
            ("unknown member", { _ = client.errorName("NoSuchMember") }),
            ("ListTasks", { _ = try client.tasks() }),
            ("GetTimeline", { try client.call("GetTimeline") }),
            ("Properties.Get", { _ = try client.property("WidgetEntry") }),
            (
                "Properties.GetAll",
                {
                    try client.call(
                        "GetAll", [.string("io.petprogress.PetProgress1")], interface: "org.freedesktop.DBus.Properties"
                    )
                }
            ),
            ("Properties.Set", { try client.setProperty("GraceMinutes", .uint32(30)) }),
            ("Introspect", { try client.call("Introspect", interface: "org.freedesktop.DBus.Introspectable") }),
        ]
        for (what, call) in calls {
            let before = clock.reads
            try call()
            #expect(clock.reads - before == 1, "\(what)")
        }
    }
}
