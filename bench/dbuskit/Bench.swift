import DBusKit
import Foundation
import LinuxKit

/// A private bus, the test service and a client, plus the measurements.
final class Bench {
    static let name = "org.example.DBusKitTest"
    static let path = "/org/example/DBusKitTest"
    static let interface = "org.example.DBusKitTest1"
    static let record = DBusValue.vardict((0..<16).map { ("key\($0)", DBusValue.int64(Int64($0))) })

    let bus = Process()
    let service = Process()
    let client: Connection
    let loop = EventLoop()

    init() throws {
        let directory = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        let exe =
            (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")).map {
                URL(fileURLWithPath: $0).deletingLastPathComponent()
            } ?? directory
        let address = try Self.start(bus, "/usr/bin/dbus-daemon", ["--session", "--nofork", "--print-address=1"])
        let ready = try Self.start(
            service, exe.appendingPathComponent("dbuskit-testservice").path, ["--address", address])
        guard ready.hasPrefix("READY") else { throw DBusError.failed("test service did not start") }
        client = try Connection(address: address)
        try loop.add(client)
    }

    /// Starts `process` and returns its first line of output.
    private static func start(_ process: Process, _ path: String, _ arguments: [String]) throws -> String {
        let pipe = Pipe()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        try process.run()
        var line = Data()
        while true {
            let byte = pipe.fileHandleForReading.readData(ofLength: 1)
            if byte.isEmpty || byte.first == UInt8(ascii: "\n") { break }
            line.append(byte)
        }
        return String(decoding: line, as: UTF8.self)
    }

    /// Stops both children by PID. SIGKILL: Foundation spawns them with SIGTERM blocked.
    func finish() {
        for process in [service, bus] where process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
    }

    func roundTrips(_ count: Int, member: String, _ arguments: [DBusValue]) throws -> [Double] {
        for _ in 0..<1000 { _ = try call(member, arguments) }
        return try (0..<count).map { _ in
            let start = Self.nanoseconds()
            _ = try call(member, arguments)
            return Double(Self.nanoseconds() - start) / 1000
        }
    }

    func pings(_ count: Int) throws -> [Double] {
        try (0..<count).map { _ in
            let start = Self.nanoseconds()
            _ = try client.call(
                destination: Self.name, path: Self.path, interface: "org.freedesktop.DBus.Peer", member: "Ping")
            return Double(Self.nanoseconds() - start) / 1000
        }
    }

    /// Arms the service's timerfd 5 ms ahead, then waits idle for its Tick; the delay is received − due.
    func timerSignalDelays(_ count: Int) throws -> [Double] {
        var received: UInt64?
        _ = try client.subscribe(MatchRule(interface: Self.interface, member: "Tick")) { _ in
            received = UInt64(Self.nanoseconds())
        }
        var delays: [Double] = []
        for _ in 0..<count {
            received = nil
            guard let due = try call("ArmTimer", [.uint32(5)]).first?.uint64Value else { continue }
            guard loop.run(until: { received != nil }, timeout: .seconds(5)), let at = received else {
                throw DBusError.failed("Tick did not arrive")
            }
            delays.append(Double(Int64(at) - Int64(due)) / 1000)
        }
        return delays
    }

    private func call(_ member: String, _ arguments: [DBusValue]) throws -> [DBusValue] {
        try client.call(
            destination: Self.name, path: Self.path, interface: Self.interface, member: member, arguments: arguments)
    }

    func report(_ label: String, _ microseconds: [Double]) {
        let sorted = microseconds.sorted()
        guard !sorted.isEmpty else { return }
        let mean = sorted.reduce(0, +) / Double(sorted.count)
        func percentile(_ p: Double) -> Double { sorted[min(sorted.count - 1, Int(Double(sorted.count) * p))] }
        print(
            label + ": "
                + String(
                    format: "n=%d mean %.1f µs, p50 %.1f µs, p99 %.1f µs, max %.1f µs",
                    sorted.count, mean, percentile(0.5), percentile(0.99), sorted[sorted.count - 1]))
    }

    /// CLOCK_MONOTONIC in nanoseconds (the clock the service's timerfd and due times use).
    static func nanoseconds() -> Int64 {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return Int64(now.tv_sec) * 1_000_000_000 + Int64(now.tv_nsec)
    }
}
