import Foundation

/// A private `dbus-daemon` (session type) listening in the sandbox, with an optional service
/// directory for activation. Stopped by its PID.
final class PrivateBus: @unchecked Sendable {
    let process: Spawned
    let address: String
    let serviceDirectory: String

    /// Starts the bus and waits for its address. `services` are activation files (name → contents)
    /// written into the service directory first; `activationEnvironment` is added to the bus's own
    /// environment, which activated services inherit.
    init(in sandbox: Sandbox, services: [String: String] = [:], activationEnvironment: [String: String] = [:])
        async throws
    {
        serviceDirectory = sandbox.path("services")
        try FileManager.default.createDirectory(atPath: serviceDirectory, withIntermediateDirectories: true)
        for (name, contents) in services {
            try contents.write(toFile: "\(serviceDirectory)/\(name)", atomically: true, encoding: .utf8)
        }
        let config = sandbox.path("bus.conf")
        try Self.config(listenDirectory: sandbox.root, serviceDirectory: serviceDirectory)
            .write(toFile: config, atomically: true, encoding: .utf8)
        process = try sandbox.spawn(
            "/usr/bin/dbus-daemon", ["--config-file=\(config)", "--nofork", "--nopidfile", "--print-address=1"],
            environment: Sandbox.baseEnvironment.merging(activationEnvironment) { $1 }, label: "dbus-daemon")
        try sandbox.guardProcess(process)
        var found: String?
        let deadline = ContinuousClock.now + .seconds(10)
        while found == nil, ContinuousClock.now < deadline, process.isRunning {
            let text = process.output
            if let line = text.split(separator: "\n").first, text.contains("\n") {
                found = String(line)
            } else {
                try await Task.sleep(for: .milliseconds(10))
            }
        }
        guard let found, found.hasPrefix("unix:") else {
            process.killNow()
            throw HarnessError("dbus-daemon printed no address: \(process.errors)")
        }
        address = found
    }

    /// The environment for a client or daemon on this bus.
    var environment: [String: String] {
        Sandbox.baseEnvironment.merging(["DBUS_SESSION_BUS_ADDRESS": address]) { $1 }
    }

    static func config(listenDirectory: String, serviceDirectory: String) -> String {
        """
        <!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
         "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
        <busconfig>
          <type>session</type>
          <listen>unix:dir=\(listenDirectory)</listen>
          <auth>EXTERNAL</auth>
          <servicedir>\(serviceDirectory)</servicedir>
          <policy context="default">
            <allow send_destination="*" eavesdrop="true"/>
            <allow eavesdrop="true"/>
            <allow own="*"/>
          </policy>
        </busconfig>
        """
    }
}
