import DBusKit
import Foundation
import LinuxKit
import TestSupport

/// A sandbox with a private bus, the test service on it, and a DBusKit client connection with its
/// own event loop. Everything it started is stopped, by PID, when it goes.
final class BusFixture {
    let sandbox: Sandbox
    let bus: PrivateBus
    let service: TestServiceProcess
    let client: Connection
    let loop = EventLoop()

    init() throws {
        sandbox = try Sandbox("dbuskit")
        do {
            bus = try PrivateBus(blockingIn: sandbox)
            service = try TestServiceProcess(bus: bus)
            guard service.isReady else { throw HarnessError("test service did not start: \(service.child.errors)") }
            client = try Connection(address: bus.address)
            try loop.add(client)
        } catch {
            sandbox.close()
            throw error
        }
    }

    deinit {
        loop.remove(client)
        client.close()
        sandbox.close()
    }

    /// Calls a method of the test interface.
    func call(_ member: String, _ arguments: [DBusValue] = [], timeout: Duration = .seconds(20)) throws -> [DBusValue] {
        try client.call(
            destination: TestServiceProcess.name, path: TestServiceProcess.path,
            interface: TestServiceProcess.interface, member: member, arguments: arguments, timeout: timeout)
    }

    /// `busctl --address=ADDRESS ...`.
    func busctl(_ arguments: [String]) throws -> ToolResult {
        try sandbox.runBlocking("busctl", ["--address=\(bus.address)"] + arguments, environment: bus.environment)
    }

    /// `gdbus` with the bus address after the subcommand.
    func gdbus(_ subcommand: String, _ arguments: [String]) throws -> ToolResult {
        try sandbox.runBlocking(
            "gdbus", [subcommand, "--address", bus.address] + arguments, environment: bus.environment)
    }

    /// `dbus-send --bus=ADDRESS --print-reply ...`.
    func dbusSend(_ arguments: [String]) throws -> ToolResult {
        try sandbox.runBlocking(
            "dbus-send", ["--bus=\(bus.address)", "--print-reply"] + arguments, environment: bus.environment)
    }

    /// busctl arguments addressing the test object and interface.
    var object: [String] { [TestServiceProcess.name, TestServiceProcess.path, TestServiceProcess.interface] }
}
