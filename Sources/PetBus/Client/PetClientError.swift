import DBusKit
import PetCore

/// Why a ``PetClient`` call failed.
public enum PetClientError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The daemon rejected the request with one of the contract's errors; nothing changed.
    case rejected(PetError)
    /// The bus or the daemon cannot be reached (no bus, no daemon and no activation, no reply).
    case unreachable(DBusError)
    /// Any other D-Bus error (a wrong argument signature, an unknown member, …).
    case failed(DBusError)
    /// The reply did not have the contract's shape.
    case malformedReply(BusDecodingError)

    /// The error a failed call raised, classified.
    public init(_ error: DBusError) {
        if let rejection = PetError(dbus: error) {
            self = .rejected(rejection)
        } else if Self.unreachableNames.contains(error.name) || error.name.hasPrefix(Self.spawnPrefix) {
            self = .unreachable(error)
        } else {
            self = .failed(error)
        }
    }

    /// The error names that mean nobody answered: no owner and no activation, an activation that
    /// failed (`Spawn.*`), a timeout, or a lost connection.
    static let unreachableNames: Set<String> = [
        DBusError.Name.serviceUnknown, DBusError.Name.noReply, DBusError.Name.disconnected,
        "org.freedesktop.DBus.Error.NameHasNoOwner", "org.freedesktop.DBus.Error.NoServer",
        "org.freedesktop.DBus.Error.Timeout", "org.freedesktop.DBus.Error.TimedOut",
    ]
    static let spawnPrefix = "org.freedesktop.DBus.Error.Spawn."

    /// One sentence for a person.
    public var description: String {
        switch self {
        case .rejected(let error): error.message
        case .unreachable(let error): error.message.isEmpty ? error.name : error.message
        case .failed(let error): error.description
        case .malformedReply(let error): "The daemon's reply was not understood: \(error.message)"
        }
    }
}
