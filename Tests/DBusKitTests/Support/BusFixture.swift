import DBusKit
import Foundation
import LinuxKit

/// A private bus, the test service on it, and a DBusKit client connection with its own event loop.
final class BusFixture {
    let bus: PrivateBus
    let service: TestServiceProcess
    let client: Connection
    let loop = EventLoop()

    init() throws {
        bus = try PrivateBus()
        service = try TestServiceProcess(bus: bus)
        guard service.isReady else { throw FixtureError("test service did not start") }
        client = try Connection(address: bus.address)
        try loop.add(client)
    }

    deinit {
        loop.remove(client)
        client.close()
    }

    /// Calls a method of the test interface.
    func call(_ member: String, _ arguments: [DBusValue] = [], timeout: Duration = .seconds(20)) throws -> [DBusValue] {
        try client.call(
            destination: TestServiceProcess.name, path: TestServiceProcess.path,
            interface: TestServiceProcess.interface, member: member, arguments: arguments, timeout: timeout)
    }

    /// Runs a tool with `--address` style options filled in by `options`.
    func busctl(_ arguments: [String]) throws -> ToolResult {
        try runTool("busctl", ["--address=\(bus.address)"] + arguments)
    }

    /// `gdbus` with the bus address after the subcommand.
    func gdbus(_ subcommand: String, _ arguments: [String]) throws -> ToolResult {
        try runTool("gdbus", [subcommand, "--address", bus.address] + arguments)
    }

    /// `dbus-send --bus=ADDRESS --print-reply ...`.
    func dbusSend(_ arguments: [String]) throws -> ToolResult {
        try runTool("dbus-send", ["--bus=\(bus.address)", "--print-reply"] + arguments)
    }

    /// busctl arguments addressing the test object and interface.
    var object: [String] { [TestServiceProcess.name, TestServiceProcess.path, TestServiceProcess.interface] }
}
