import DBusKit
import PetCore

/// The contract's errors (petprogress(7) §6.1): `io.petprogress.PetProgress1.Error.<Name>` with the sentence.
extension PetError {
    /// This rejection as the D-Bus error the daemon replies with.
    public var dbus: DBusError { DBusError(name: PetBus.errorPrefix + kind.rawValue, message: message) }

    /// The rejection a D-Bus error reply carries, or nil when it is not one of the contract's.
    public init?(dbus error: DBusError) {
        guard error.name.hasPrefix(PetBus.errorPrefix),
            let kind = Kind(rawValue: String(error.name.dropFirst(PetBus.errorPrefix.count)))
        else { return nil }
        self.init(kind, error.message)
    }
}
