import DBusKit

/// A new value for one of the settings (petprogress(7) §4), as ``PetClient/set(_:)`` sends it.
public enum SettingChange: Equatable, Sendable {
    case resetTime(String)
    case graceMinutes(UInt32)
    case snoozeMinutes(UInt32)
    case rollover(Bool)

    /// The property it sets.
    public var property: PetBus.Property {
        switch self {
        case .resetTime: .resetTime
        case .graceMinutes: .graceMinutes
        case .snoozeMinutes: .snoozeMinutes
        case .rollover: .rollover
        }
    }

    /// The value, typed as the property.
    var value: DBusValue {
        switch self {
        case .resetTime(let text): .string(text)
        case .graceMinutes(let minutes), .snoozeMinutes(let minutes): .uint32(minutes)
        case .rollover(let on): .bool(on)
        }
    }
}
