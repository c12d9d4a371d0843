import DBusKit

/// The daemon's contract as literal strings from petprogress(7) §6 — deliberately not PetBus's constants:
/// the load client is a black box that would catch a renamed member or key.
enum Wire {
    static let name = "io.petprogress.PetProgress1"
    static let path = "/io/petprogress/PetProgress1"
    static let interface = "io.petprogress.PetProgress1"
    static let properties = "org.freedesktop.DBus.Properties"
    static let peer = "org.freedesktop.DBus.Peer"

    /// `io.petprogress.PetProgress1.Error.<name>`.
    static func error(_ name: String) -> String { "io.petprogress.PetProgress1.Error.\(name)" }

    /// The error names that mean the call may not have reached a daemon, or its reply was lost:
    /// the daemon was killed (crash runs). Anything else is an answer.
    static let transportErrors: Set<String> = [
        "org.freedesktop.DBus.Error.NoReply", "org.freedesktop.DBus.Error.ServiceUnknown",
        "org.freedesktop.DBus.Error.NameHasNoOwner", "org.freedesktop.DBus.Error.Disconnected",
        "org.freedesktop.DBus.Error.Timeout", "org.freedesktop.DBus.Error.TimedOut",
    ]
}

/// One call to the daemon's object.
struct Call {
    var interface = Wire.interface
    var member: String
    var arguments: [DBusValue] = []

    /// `Properties.Set` of one of the interface's properties.
    static func set(_ property: String, _ value: DBusValue) -> Call {
        Call(
            interface: Wire.properties, member: "Set",
            arguments: [.string(Wire.interface), .string(property), .variant(value)])
    }
}

extension Connection {
    /// Sends `call` to the daemon; the reply's arguments, or the error.
    func perform(_ call: Call) -> Result<[DBusValue], DBusError> {
        do {
            return .success(
                try self.call(
                    destination: Wire.name, path: Wire.path, interface: call.interface, member: call.member,
                    arguments: call.arguments, timeout: .seconds(20)))
        } catch let error as DBusError {
            return .failure(error)
        } catch {
            return .failure(DBusError(name: "petload.Unexpected", message: "\(error)"))
        }
    }
}
