import DBusKit
import Foundation

/// DBusKit's own client on the private bus, with literal names and dictionary replies (black-box).
public final class RawClient: @unchecked Sendable {
    public let connection: Connection

    public init(bus: PrivateBus) throws {
        connection = try Connection(address: bus.address)
    }

    deinit { connection.close() }

    /// Calls a member of the Pet Progress interface (or `interface`), returning the reply's arguments.
    @discardableResult
    public func call(_ member: String, _ arguments: [DBusValue] = [], interface: String = PetDaemon.interface) throws
        -> [DBusValue]
    {
        try connection.call(
            destination: PetDaemon.name, path: PetDaemon.path, interface: interface, member: member,
            arguments: arguments, timeout: .seconds(20))
    }

    /// The D-Bus error name a call fails with, or nil if it succeeds.
    public func errorName(_ member: String, _ arguments: [DBusValue] = [], interface: String = PetDaemon.interface)
        -> String?
    {
        do {
            try call(member, arguments, interface: interface)
            return nil
        } catch let error as DBusError {
            return error.name
        } catch {
            return "\(error)"
        }
    }

    public func entry() throws -> [String: DBusValue] { try dict(call("GetWidgetEntry")) }
    public func pet() throws -> [String: DBusValue] { try dict(call("GetPet")) }
    public func status() throws -> [String: DBusValue] { try dict(call("GetStatus")) }

    public func tasks(_ day: String = "") throws -> [[String: DBusValue]] {
        guard let records = try call("ListTasks", [.string(day)]).first?.vardictArrayValue else {
            throw HarnessError("ListTasks did not return aa{sv}")
        }
        return records
    }

    public func addTask(_ title: String, _ time: String) throws -> String {
        guard let id = try call("AddTask", [.string(title), .string(time)]).first?.stringValue else {
            throw HarnessError("AddTask returned no id")
        }
        return id
    }

    public func addTaskFor(_ title: String, _ time: String, day: String, repeat rule: String = "") throws -> String {
        guard
            let id = try call("AddTaskFor", [.string(title), .string(time), .string(day), .string(rule)]).first?
                .stringValue
        else {
            throw HarnessError("AddTaskFor returned no id")
        }
        return id
    }

    public func markDone(_ id: String) throws -> Int32 {
        guard let xp = try call("MarkDone", [.string(id)]).first?.int32Value else {
            throw HarnessError("MarkDone returned no i")
        }
        return xp
    }

    public func setRest(_ from: String, _ to: String, _ rest: Bool) throws {
        try call("SetRest", [.string(from), .string(to), .bool(rest)])
    }

    public func restDays() throws -> [String] {
        guard case .array("s", let days)? = try call("ListRestDays").first else {
            throw HarnessError("ListRestDays did not return as")
        }
        return days.compactMap(\.stringValue)
    }

    /// `GetHistory`: the records and `more`.
    public func history(_ from: String = "", _ to: String = "") throws -> (days: [[String: DBusValue]], more: Bool) {
        let reply = try call("GetHistory", [.string(from), .string(to)])
        guard reply.count == 2, let days = reply[0].vardictArrayValue, let more = reply[1].boolValue else {
            throw HarnessError("GetHistory did not return aa{sv}b: \(reply)")
        }
        return (days, more)
    }

    public func property(_ name: String) throws -> DBusValue {
        try connection.getProperty(
            destination: PetDaemon.name, path: PetDaemon.path, interface: PetDaemon.interface, name: name)
    }

    public func setProperty(_ name: String, _ value: DBusValue) throws {
        try connection.setProperty(
            destination: PetDaemon.name, path: PetDaemon.path, interface: PetDaemon.interface, name: name, value: value)
    }

    /// The unique name owning the daemon's well-known name, and its PID (from the bus).
    public func daemonPID() throws -> pid_t {
        let owner = try connection.call(
            destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus", interface: "org.freedesktop.DBus",
            member: "GetConnectionUnixProcessID", arguments: [.string(PetDaemon.name)])
        guard let pid = owner.first?.uint32Value else { throw HarnessError("no PID for \(PetDaemon.name)") }
        return pid_t(pid)
    }

    private func dict(_ reply: [DBusValue]) throws -> [String: DBusValue] {
        guard let values = reply.first?.vardictValue else { throw HarnessError("expected a{sv}, got \(reply)") }
        return values
    }
}

extension Dictionary where Key == String, Value == DBusValue {
    public func int(_ key: String) -> Int64? { self[key]?.integerValue }
    public func string(_ key: String) -> String? { self[key]?.stringValue }
    public func bool(_ key: String) -> Bool? { self[key]?.boolValue }

    /// The pet part of an entry (the keys GetPet returns), for comparing snapshots.
    public var petPart: [String: DBusValue] {
        filter {
            [
                "stage_index", "stage_count", "stage_name", "stage_xp", "threshold", "progress", "is_final",
                "icon_name", "icon_path", "glyph",
            ].contains($0.key)
        }
    }
}
