import Foundation

/// A private `dbus-daemon` (session type) listening in the sandbox, with an optional service
/// directory for activation. Stopped by its PID.
public final class PrivateBus: @unchecked Sendable {
    public let process: Spawned
    public let address: String
    public let serviceDirectory: String

    /// The sandbox it runs in: its socket and configuration, and the place for its clients.
    public let sandbox: Sandbox

    /// Starts the bus and waits for its address. `services` are activation files (name → contents)
    /// written into the service directory first; `activationEnvironment` is added to the bus's own
    /// environment, which activated services inherit.
    /// `sessionLimits`: the limits of the user's session bus (/usr/share/dbus-1/session.conf:
    /// about 1 GB queued per connection, 1 GB messages, 50,000 pending replies) instead of
    /// dbus-daemon's defaults (127 MB, 32 MB, 128), for the attacks that need them; with
    /// `pendingReplies`, another limit of calls awaiting a reply per connection (the system bus's 128).
    public convenience init(
        in sandbox: Sandbox, services: [String: String] = [:], activationEnvironment: [String: String] = [:],
        sessionLimits: Bool = false, pendingReplies: Int = 50_000
    ) async throws {
        let process = try Self.launch(
            in: sandbox, services: services, activationEnvironment: activationEnvironment,
            sessionLimits: sessionLimits, pendingReplies: pendingReplies)
        _ = await poll(timeout: .seconds(10), every: .milliseconds(10)) { Self.printed(process) }
        try self.init(sandbox: sandbox, process: process)
    }

    /// The same, blocking the calling thread: for synchronous suites (DBusKitTests) and `offPool`.
    public convenience init(
        blockingIn sandbox: Sandbox, services: [String: String] = [:], activationEnvironment: [String: String] = [:]
    ) throws {
        let process = try Self.launch(in: sandbox, services: services, activationEnvironment: activationEnvironment)
        _ = pollBlocking(timeout: .seconds(10), every: .milliseconds(10)) { Self.printed(process) }
        try self.init(sandbox: sandbox, process: process)
    }

    /// Takes the address the bus printed, or stops it and throws.
    private init(sandbox: Sandbox, process: Spawned) throws {
        guard let line = process.nextLine(), line.hasPrefix("unix:") else {
            process.killNow()
            throw HarnessError("dbus-daemon printed no address: \(process.errors)")
        }
        self.sandbox = sandbox
        self.process = process
        address = line
        serviceDirectory = sandbox.path("services")
    }

    /// Writes the configuration and activation files, and starts `dbus-daemon` under a watchdog.
    private static func launch(
        in sandbox: Sandbox, services: [String: String], activationEnvironment: [String: String],
        sessionLimits: Bool = false, pendingReplies: Int = 50_000
    ) throws -> Spawned {
        let serviceDirectory = sandbox.path("services")
        try FileManager.default.createDirectory(atPath: serviceDirectory, withIntermediateDirectories: true)
        for (name, contents) in services {
            try contents.write(toFile: "\(serviceDirectory)/\(name)", atomically: true, encoding: .utf8)
        }
        let config = sandbox.path("bus.conf")
        try Self.config(
            listenDirectory: sandbox.root, serviceDirectory: serviceDirectory, sessionLimits: sessionLimits,
            pendingReplies: pendingReplies
        ).write(toFile: config, atomically: true, encoding: .utf8)
        let process = try sandbox.spawn(
            "/usr/bin/dbus-daemon", ["--config-file=\(config)", "--nofork", "--nopidfile", "--print-address=1"],
            environment: Sandbox.baseEnvironment.merging(activationEnvironment) { $1 }, label: "dbus-daemon")
        try sandbox.guardProcess(process)
        return process
    }

    /// Whether the bus has printed its address line, or exited.
    private static func printed(_ process: Spawned) -> Bool { process.output.contains("\n") || !process.isRunning }

    /// The environment for a client or daemon on this bus.
    public var environment: [String: String] {
        Sandbox.baseEnvironment.merging(["DBUS_SESSION_BUS_ADDRESS": address]) { $1 }
    }

    public static func config(
        listenDirectory: String, serviceDirectory: String, sessionLimits: Bool = false, pendingReplies: Int = 50_000
    ) -> String {
        let limits =
            sessionLimits
            ? ["max_incoming_bytes", "max_outgoing_bytes", "max_message_size"].map {
                "<limit name=\"\($0)\">1000000000</limit>"
            }.joined() + "<limit name=\"max_replies_per_connection\">\(pendingReplies)</limit>" : ""
        return """
            <!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
             "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
            <busconfig>
              <type>session</type>
              <listen>unix:dir=\(listenDirectory)</listen>
              <auth>EXTERNAL</auth>
              <servicedir>\(serviceDirectory)</servicedir>
              \(limits)
              <policy context="default">
                <allow send_destination="*" eavesdrop="true"/>
                <allow eavesdrop="true"/>
                <allow own="*"/>
              </policy>
            </busconfig>
            """
    }
}
