import DBusKit
import Foundation

/// The real `petprogressd` binary on a private bus, stopped by its PID.
public final class PetDaemon: @unchecked Sendable {
    public static let name = "io.petprogress.PetProgress1"
    public static let path = "/io/petprogress/PetProgress1"
    public static let interface = "io.petprogress.PetProgress1"

    public let process: Spawned
    public let dataDirectory: String

    /// Starts the daemon; with `waitForName`, returns once it owns the bus name (throws if it exits
    /// first). Blocks: call it through `World.daemon` (off the pool) or inside `offPool`.
    public init(
        sandbox: Sandbox, bus: PrivateBus, dataDirectory: String? = nil, now: String? = nil, timeScale: Double? = nil,
        zone: String = "Europe/Berlin", extraArguments: [String] = [], waitForName: Bool = true
    ) throws {
        self.dataDirectory = dataDirectory ?? sandbox.path("data")
        var arguments = ["--data-dir", self.dataDirectory]
        if let now { arguments += ["--now", now] }
        if let timeScale { arguments += ["--time-scale", String(timeScale)] }
        process = try sandbox.spawn(
            try Self.binary(), arguments + extraArguments,
            environment: Self.environment(sandbox: sandbox, bus: bus, zone: zone),
            label: "petprogressd")
        if waitForName { try waitUntilOwned(bus: bus) }
    }

    /// The daemon's environment: the private bus, a zone, and a HOME/XDG tree inside the sandbox.
    public static func environment(sandbox: Sandbox, bus: PrivateBus, zone: String) -> [String: String] {
        bus.environment.merging([
            "TZ": zone,
            "HOME": sandbox.path("home"),
            "XDG_CONFIG_HOME": sandbox.path("home/.config"),
            "XDG_DATA_HOME": sandbox.path("home/.local/share"),
            "XDG_DATA_DIRS": sandbox.path("home/share"),
        ]) { $1 }
    }

    /// Polls the bus until this daemon owns its name; throws with its stderr if it exits or times out.
    /// The owner's PID must be this process's: a daemon killed a moment ago can still hold the name
    /// until the bus reads its hang-up, and a restart test would otherwise talk to the dead one.
    public func waitUntilOwned(bus: PrivateBus, timeout: Duration = .seconds(30)) throws {
        let connection = try Connection(address: bus.address)
        defer { connection.close() }
        func owned() throws -> Bool {
            do {
                let reply = try connection.call(
                    destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus",
                    interface: "org.freedesktop.DBus", member: "GetConnectionUnixProcessID",
                    arguments: [.string(Self.name)], timeout: .seconds(20))
                return reply.first?.uint32Value.map { pid_t($0) } == process.pid
            } catch let error as DBusError where error.name == "org.freedesktop.DBus.Error.NameHasNoOwner" {
                return false
            }
        }
        let deadline = ContinuousClock.now + timeout
        repeat {
            if try owned() { return }
            if let code = process.reap(blocking: false) {
                throw HarnessError("petprogressd exited \(code) before owning its name: \(process.errors)")
            }
            usleep(15_000)
        } while ContinuousClock.now < deadline
        if try owned() { return }
        throw HarnessError("petprogressd did not own \(Self.name) within \(timeout): \(process.errors)")
    }

    /// Returns once the daemon whose stderr `process` collects watches for zone changes. Every
    /// private bus and daemon of the parallel suites holds an inotify instance; when the kernel's
    /// 128 per user run out, the daemon says so and tries again every two seconds until it gets
    /// one. Call it after a call the daemon answered (its event loop, and the watch, are set up).
    public static func waitForZoneWatch(_ process: Spawned, timeout: Duration = .seconds(60)) async throws {
        guard process.errors.contains("cannot watch for time-zone changes") else { return }
        guard await poll(timeout: timeout, { process.errors.contains("watching for time-zone changes") }) else {
            throw HarnessError("the daemon never got its inotify watch: \(process.errors)")
        }
    }

    /// SIGTERM and wait; the exit status.
    @discardableResult
    public func stop() async -> Int32 { await process.stop() }

    /// The daemon binary, in the build products directory beside this test bundle.
    public static func binary() throws -> String { try productBinary("petprogressd", override: "PETPROGRESSD") }
}
