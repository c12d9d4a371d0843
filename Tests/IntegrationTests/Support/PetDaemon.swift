import DBusKit
import Foundation

/// The real `petprogressd` binary on a private bus, stopped by its PID.
final class PetDaemon: @unchecked Sendable {
    static let name = "io.petprogress.PetProgress1"
    static let path = "/io/petprogress/PetProgress1"
    static let interface = "io.petprogress.PetProgress1"

    let process: Spawned
    let dataDirectory: String

    /// Starts the daemon; with `waitForName`, returns once it owns the bus name (throws if it exits
    /// first). Blocks: call it through `World.daemon` (off the pool) or inside `offPool`.
    init(
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
    static func environment(sandbox: Sandbox, bus: PrivateBus, zone: String) -> [String: String] {
        bus.environment.merging([
            "TZ": zone,
            "HOME": sandbox.path("home"),
            "XDG_CONFIG_HOME": sandbox.path("home/.config"),
            "XDG_DATA_HOME": sandbox.path("home/.local/share"),
            "XDG_DATA_DIRS": sandbox.path("home/share"),
        ]) { $1 }
    }

    /// Polls the bus until the daemon owns its name; throws with its stderr if it exits or times out.
    func waitUntilOwned(bus: PrivateBus, timeout: Duration = .seconds(30)) throws {
        let connection = try Connection(address: bus.address)
        defer { connection.close() }
        func owned() throws -> Bool {
            let reply = try connection.call(
                destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus", interface: "org.freedesktop.DBus",
                member: "NameHasOwner", arguments: [.string(Self.name)], timeout: .seconds(20))
            return reply.first?.boolValue == true
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
    static func waitForZoneWatch(_ process: Spawned, timeout: Duration = .seconds(60)) async throws {
        guard process.errors.contains("cannot watch for time-zone changes") else { return }
        guard await poll(timeout: timeout, { process.errors.contains("watching for time-zone changes") }) else {
            throw HarnessError("the daemon never got its inotify watch: \(process.errors)")
        }
    }

    /// SIGTERM and wait; the exit status.
    @discardableResult
    func stop() async -> Int32 { await process.stop() }

    /// The daemon binary, in the build products directory beside this test bundle.
    static func binary() throws -> String { try productBinary("petprogressd", override: "PETPROGRESSD") }
}

/// A product of this package (`petprogressd`, `petctl`) in the build products directory beside
/// this test bundle, or the path in the environment variable `override`.
func productBinary(_ name: String, override: String) throws -> String {
    if let path = ProcessInfo.processInfo.environment[override] { return path }
    var candidates: [URL] = []
    if let exe = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
        candidates.append(URL(fileURLWithPath: exe).deletingLastPathComponent())
    }
    if let first = CommandLine.arguments.first {
        candidates.append(URL(fileURLWithPath: first).deletingLastPathComponent())
    }
    for bundle in Bundle.allBundles { candidates.append(bundle.bundleURL.deletingLastPathComponent()) }
    for directory in candidates {
        let path = directory.appendingPathComponent(name).path
        if FileManager.default.isExecutableFile(atPath: path) { return path }
    }
    throw HarnessError(
        "\(name) not found beside the tests (\(candidates.map(\.path))); run swift build --build-tests first")
}
