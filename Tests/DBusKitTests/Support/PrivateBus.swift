import Foundation

/// A private `dbus-daemon --session` for one test, stopped by its PID.
final class PrivateBus {
    let daemon: ChildProcess
    let address: String

    init() throws {
        daemon = try ChildProcess("/usr/bin/dbus-daemon", ["--session", "--nofork", "--print-address=1"])
        guard let line = daemon.readLine(), line.hasPrefix("unix:") else {
            daemon.stop()
            throw FixtureError("dbus-daemon printed no address")
        }
        address = line
    }

    deinit {
        daemon.stop()
    }

    /// Stops the bus daemon by PID (SIGKILL: it must not get a chance to say goodbye).
    func kill() {
        daemon.killHard()
    }
}

/// A fixture could not be set up.
struct FixtureError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
