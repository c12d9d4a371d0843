import DBusKit
import PetCore

/// The settings as properties (petprogress(7) §4): `ResetTime` s, `GraceMinutes` u, `SnoozeMinutes` u,
/// `Rollover` b.
extension Settings {
    /// Each setting property's current value.
    public func dbus(_ property: PetBus.Property) -> DBusValue? {
        switch property {
        case .resetTime: .string(resetTime.description)
        case .graceMinutes: .uint32(UInt32(clamping: graceMinutes))
        case .snoozeMinutes: .uint32(UInt32(clamping: snoozeMinutes))
        case .rollover: .bool(rollover)
        case .widgetEntry, .stages: nil
        }
    }

    /// Decodes the settings from `Properties.GetAll`'s `a{sv}`.
    public init(dbus value: DBusValue) throws(BusDecodingError) {
        let r = try VardictReader(value, "The settings")
        self.init()
        let reset = try r.string(PetBus.Property.resetTime)
        guard let time = WallTime(parsing: reset) else {
            throw BusDecodingError("ResetTime should be HH:MM, not '\(reset)'.")
        }
        resetTime = time
        graceMinutes = Int(try r.uint32(PetBus.Property.graceMinutes))
        snoozeMinutes = Int(try r.uint32(PetBus.Property.snoozeMinutes))
        rollover = try r.bool(PetBus.Property.rollover)
    }
}
