import Foundation
import TestSupport

/// The `dbuskit-testservice` binary running on a private bus, in the bus's sandbox.
final class TestServiceProcess {
    static let name = "org.example.DBusKitTest"
    static let path = "/org/example/DBusKitTest"
    static let interface = "org.example.DBusKitTest1"

    let child: Spawned
    let readyLine: String?

    /// Starts the service and waits for its READY line (nil if it exited first).
    init(bus: PrivateBus, name: String = TestServiceProcess.name) throws {
        child = try bus.sandbox.spawn(
            try productBinary("dbuskit-testservice", override: "DBUSKIT_TESTSERVICE"),
            ["--address", bus.address, "--name", name], environment: bus.environment, label: "testservice")
        readyLine = child.waitForLine()
    }

    /// Started and owning its name.
    var isReady: Bool { readyLine?.hasPrefix("READY ") == true }
}
