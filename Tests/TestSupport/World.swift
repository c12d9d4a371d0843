import Foundation

/// Test fixture bundle: a sandbox, its private bus, and (optionally) a daemon and a client.
/// Usage: `let w = try await World("name"); defer { w.close() }`.
public final class World: @unchecked Sendable {
    public let sandbox: Sandbox
    public let bus: PrivateBus

    /// A world over a sandbox and bus made elsewhere (e.g. a bus with activation files).
    public init(sandbox: Sandbox, bus: PrivateBus) {
        self.sandbox = sandbox
        self.bus = bus
    }

    /// A world whose bus starts the daemon by D-Bus activation: a generated `.service` file whose
    /// `Exec=` is the binary under test on `data` at the simulated `now`.
    public static func activating(_ label: String, data: String = "data", now: String) async throws -> World {
        let sandbox = try Sandbox(label)
        do {
            let service = """
                [D-BUS Service]
                Name=\(PetDaemon.name)
                Exec=\(try PetDaemon.binary()) --data-dir \(sandbox.path(data)) --now \(now)

                """
            let bus = try await PrivateBus(
                in: sandbox, services: ["\(PetDaemon.name).service": service],
                activationEnvironment: [
                    "TZ": "Europe/Berlin", "HOME": sandbox.path("home"),
                    "XDG_CONFIG_HOME": sandbox.path("home/.config"),
                ])
            return World(sandbox: sandbox, bus: bus)
        } catch {
            sandbox.close()
            throw error
        }
    }

    public init(_ label: String, sessionLimits: Bool = false, pendingReplies: Int = 50_000) async throws {
        sandbox = try Sandbox(label)
        do {
            bus = try await PrivateBus(in: sandbox, sessionLimits: sessionLimits, pendingReplies: pendingReplies)
        } catch {
            sandbox.close()
            throw error
        }
    }

    public func daemon(
        dataDirectory: String? = nil, now: String? = nil, timeScale: Double? = nil, zone: String = "Europe/Berlin",
        extraArguments: [String] = [], waitForName: Bool = true
    ) async throws -> PetDaemon {
        try await offPool { [sandbox, bus] in
            try PetDaemon(
                sandbox: sandbox, bus: bus, dataDirectory: dataDirectory, now: now, timeScale: timeScale,
                zone: zone, extraArguments: extraArguments, waitForName: waitForName)
        }
    }

    public func client() throws -> RawClient { try RawClient(bus: bus) }

    /// `dbus-send --print-reply` to the daemon's object: `member` is `Interface.Member`.
    public func dbusSend(_ member: String, _ arguments: [String] = [], timeout: Duration = .seconds(30)) async throws
        -> ToolResult
    {
        try await sandbox.run(
            "dbus-send",
            [
                "--bus=\(bus.address)", "--print-reply", "--reply-timeout=20000", "--dest=\(PetDaemon.name)",
                PetDaemon.path, member.contains(".") ? member : "\(PetDaemon.interface).\(member)",
            ]
                + arguments,
            environment: bus.environment, timeout: timeout)
    }

    /// `busctl --address=… ARGS`.
    public func busctl(_ arguments: [String]) async throws -> ToolResult {
        try await sandbox.run(
            "busctl", ["--address=\(bus.address)", "--no-pager"] + arguments, environment: bus.environment)
    }

    /// `busctl call` on the daemon's object and interface.
    public func busctlCall(_ member: String, _ signatureAndArguments: [String] = [], json: Bool = true) async throws
        -> ToolResult
    {
        try await busctl(
            (json ? ["--json=short"] : []) + ["call", PetDaemon.name, PetDaemon.path, PetDaemon.interface, member]
                + signatureAndArguments)
    }

    /// `gdbus call` on the daemon's object; `method` is `Member` (our interface) or `Interface.Member`.
    public func gdbusCall(_ method: String, _ arguments: [String] = []) async throws -> ToolResult {
        let full = method.contains(".") ? method : "\(PetDaemon.interface).\(method)"
        return try await sandbox.run(
            "gdbus",
            [
                "call", "--address", bus.address, "--dest", PetDaemon.name, "--object-path", PetDaemon.path,
                "--method", full,
            ] + arguments,
            environment: bus.environment)
    }

    public func close() { sandbox.close() }
}
