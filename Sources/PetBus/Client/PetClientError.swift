import DBusKit
import PetCore

/// Why a ``PetClient`` call failed.
public enum PetClientError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The daemon rejected the request with one of the contract's errors; nothing changed.
    case rejected(PetError)
    /// The bus or the daemon cannot be reached (no bus, no daemon and no activation, a lost connection).
    case unreachable(DBusError)
    /// The call went out but no reply came in time: the request may or may not have taken effect.
    case noAnswer(DBusError)
    /// Any other D-Bus error (a wrong argument signature, an unknown member, …).
    case failed(DBusError)
    /// The reply did not have the contract's shape.
    case malformedReply(BusDecodingError)

    /// The error a failed call raised, classified.
    public init(_ error: DBusError) {
        if let rejection = PetError(dbus: error) {
            self = .rejected(rejection)
        } else if Self.noAnswerNames.contains(error.name) {
            self = .noAnswer(error)
        } else if Self.unreachableNames.contains(error.name) || error.name.hasPrefix(Self.spawnPrefix) {
            self = .unreachable(error)
        } else {
            self = .failed(error)
        }
    }

    /// The error names that mean nobody could take the request: no owner and no activation, an
    /// activation that failed (`Spawn.*`), or a lost connection.
    static let unreachableNames: Set<String> = [
        DBusError.Name.serviceUnknown, DBusError.Name.disconnected,
        "org.freedesktop.DBus.Error.NameHasNoOwner", "org.freedesktop.DBus.Error.NoServer",
    ]
    /// The error names of a call that was sent and never answered: libdbus's reply timeout
    /// (`NoReply`, also when the daemon went away mid-call) and the timeouts of other buses.
    static let noAnswerNames: Set<String> = [
        DBusError.Name.noReply, "org.freedesktop.DBus.Error.Timeout", "org.freedesktop.DBus.Error.TimedOut",
    ]
    static let spawnPrefix = "org.freedesktop.DBus.Error.Spawn."

    /// One sentence for a person.
    public var description: String {
        switch self {
        case .rejected(let error): error.message
        case .unreachable(let error), .noAnswer(let error): error.message.isEmpty ? error.name : error.message
        case .failed(let error): error.description
        case .malformedReply(let error): "The daemon's reply was not understood: \(error.message)"
        }
    }
}
