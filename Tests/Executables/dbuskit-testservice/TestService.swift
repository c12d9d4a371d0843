import DBusKit
import Glibc
import LinuxKit

/// The test object: echo methods for every type, errors, signals (one from a timerfd), properties.
final class TestService {
    static let busName = "org.example.DBusKitTest"
    static let path = "/org/example/DBusKitTest"
    static let interface = "org.example.DBusKitTest1"

    let connection: Connection
    let loop: EventLoop
    var counter: UInt32 = 0
    var label = "hello"
    var level: UInt32 = 50

    init(connection: Connection, loop: EventLoop) {
        self.connection = connection
        self.loop = loop
    }

    func makeObject() throws -> ExportedObject {
        let interface = ExportedObject.Interface(
            Self.interface,
            methods: [
                .init("Echo", in: nil, out: nil) { $0.arguments },
                .init("EchoString", in: "s", out: "s") { [.string(try $0.string(0))] },
                .init("Add", in: "ii", out: "i") { call in
                    let (sum, overflow) = try call.int32(0).addingReportingOverflow(try call.int32(1))
                    if overflow { throw DBusError.invalidArgs("The sum overflows int32.") }
                    return [.int32(sum)]
                },
                .init("MakeString", in: "u", out: "s") { call in
                    let length = try call.uint32(0)
                    guard length <= 16 << 20 else { throw DBusError.invalidArgs("At most 16 MiB.") }
                    return [.string(String(repeating: "x", count: Int(length)))]
                },
                .init("Fail", in: "ss") { call in throw DBusError(name: try call.string(0), message: try call.string(1))
                },
                .init("EmitPing", in: "s") { [unowned self] call in
                    try connection.emitSignal(
                        path: Self.path, interface: Self.interface, name: "Pinged",
                        arguments: [.string(try call.string(0))])
                    return []
                },
                .init("ArmTimer", in: "u", out: "t") { [unowned self] in
                    [.uint64(try armTimer(milliseconds: try $0.uint32(0)))]
                },
                .init("SetCounter", in: "u") { [unowned self] call in
                    counter = try call.uint32(0)
                    try connection.emitPropertiesChanged(
                        of: try object(), interface: Self.interface, names: ["Counter"])
                    return []
                },
                .init("ResidentKiB", out: "t") { _ in [.uint64(ProcessMemory.residentKiB())] },
                .init("Quit") { [unowned self] _ in
                    loop.stop()
                    return []
                },
            ],
            properties: [
                .init("Counter", signature: "u") { [unowned self] in .uint32(counter) },
                .init(
                    "Label", signature: "s", get: { [unowned self] in .string(label) },
                    set: { [unowned self] value in
                        guard let text = value.stringValue else { throw DBusError.invalidArgs("Label takes a string.") }
                        label = text
                    }),
                .init(
                    "Level", signature: "u", get: { [unowned self] in .uint32(level) },
                    set: { [unowned self] value in
                        // Like the daemon's minute settings: a `u`, or an `i` holding a non-negative value.
                        guard let number = value.integerValue, value.signature == "u" || value.signature == "i",
                            (0...100).contains(number)
                        else { throw DBusError.invalidArgs("Level takes a number from 0 to 100.") }
                        level = UInt32(number)
                    }),
                .init("Record", signature: "a{sv}") { Self.record },
            ])
        let made = try ExportedObject(
            path: Self.path, interfaces: [interface],
            introspectionXML: IntrospectableInterface.document(interfacesXML: Self.introspectionXML))
        exported = made
        return made
    }

    private var exported: ExportedObject?

    private func object() throws -> ExportedObject {
        guard let exported else { throw DBusError.failed("Not exported yet.") }
        return exported
    }

    /// An `a{sv}` holding one value of every type.
    static let record: DBusValue = .vardict([
        ("byte", .byte(255)), ("bool", .bool(true)), ("int16", .int16(-32768)), ("uint16", .uint16(65535)),
        ("int32", .int32(-2_147_483_648)), ("uint32", .uint32(4_294_967_295)), ("int64", .int64(Int64.min)),
        ("uint64", .uint64(UInt64.max)), ("double", .double(-1.5)), ("string", .string("héllo ✓")),
        ("path", .objectPath("/org/example/Thing")), ("signature", .signature("a{sv}")),
        ("strings", .stringArray(["a", "b"])), ("struct", .structure([.int32(1), .string("one")])),
        ("nested", .vardict([("inner", .vardictArray([[("k", .uint32(1))], []]))])),
        ("variant", .variant(.int32(7))),
    ])

    /// Arms a one-shot monotonic timerfd; when it fires, `Tick(t due_ns)` is sent from its handler with no
    /// bus traffic to prompt it. Returns the due time in CLOCK_MONOTONIC nanoseconds.
    func armTimer(milliseconds: UInt32) throws -> UInt64 {
        let timer = try TimerFD(clock: .monotonic)
        let due = timer.now() + Int64(milliseconds) * 1_000_000
        try timer.arm(atNanoseconds: due)
        var token: EventLoop.FDToken?
        token = loop.addFD(timer.fd) { [unowned self] _ in
            guard case .expired = timer.read() else { return }
            if let token { loop.removeFD(token) }  // the handler's capture of `timer` goes with it
            try? connection.emitSignal(
                path: Self.path, interface: Self.interface, name: "Tick", arguments: [.uint64(UInt64(due))])
        }
        return UInt64(due)
    }

    /// Stops the loop on SIGTERM or SIGINT, read from a signalfd on the loop.
    func watchSignals() throws {
        let signals = try SignalFD(signals: [SIGTERM, SIGINT])
        loop.addFD(signals.fd) { [unowned self] _ in
            if !signals.read().isEmpty { loop.stop() }
        }
    }
}
