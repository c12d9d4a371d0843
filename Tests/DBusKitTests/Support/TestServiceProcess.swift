import Foundation

/// The `dbuskit-testservice` binary running on a private bus.
final class TestServiceProcess {
    static let name = "org.example.DBusKitTest"
    static let path = "/org/example/DBusKitTest"
    static let interface = "org.example.DBusKitTest1"

    let child: ChildProcess
    let readyLine: String?

    /// Starts the service and waits for its READY line (nil if it exited first).
    init(bus: PrivateBus, name: String = TestServiceProcess.name) throws {
        child = try ChildProcess(try Self.binary(), ["--address", bus.address, "--name", name])
        readyLine = child.readLine()
    }

    deinit {
        child.stop()
    }

    /// Started and owning its name.
    var isReady: Bool { readyLine?.hasPrefix("READY ") == true }

    /// The service binary: next to the test bundle (both live in the build directory).
    static func binary() throws -> String {
        if let override = ProcessInfo.processInfo.environment["DBUSKIT_TESTSERVICE"] { return override }
        var candidates: [URL] = []
        if let exe = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
            candidates.append(URL(fileURLWithPath: exe).deletingLastPathComponent())
        }
        for argument in CommandLine.arguments.prefix(1) {
            candidates.append(URL(fileURLWithPath: argument).deletingLastPathComponent())
        }
        for bundle in Bundle.allBundles {
            candidates.append(bundle.bundleURL.deletingLastPathComponent())
        }
        for directory in candidates {
            let path = directory.appendingPathComponent("dbuskit-testservice").path
            if FileManager.default.isExecutableFile(atPath: path) { return path }
        }
        throw FixtureError("dbuskit-testservice not found next to the tests; run swift build --build-tests first")
    }
}
