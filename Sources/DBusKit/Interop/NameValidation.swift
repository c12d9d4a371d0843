import CDBus

/// Checks names before they reach libdbus, which aborts the process on an invalid one.
///
/// libdbus treats an invalid path, interface, member, error or bus name passed to its API as a
/// programming error and calls `abort()` (its checks are fatal by default). Anything built from input
/// goes through these first.
public enum DBusNames {
    /// The longest interface, member, error or bus name the D-Bus specification allows, in bytes.
    public static let maxNameLength = 255

    /// True when `path` is a valid object path such as `/org/example/Thing`.
    public static func isValidObjectPath(_ path: String) -> Bool {
        noNUL(path) && dbus_validate_path(path, nil) != 0
    }

    /// True when `name` is a valid interface name such as `org.example.Thing1`.
    public static func isValidInterface(_ name: String) -> Bool {
        noNUL(name) && dbus_validate_interface(name, nil) != 0
    }

    /// True when `name` is a valid member (method, signal or property) name.
    public static func isValidMember(_ name: String) -> Bool {
        noNUL(name) && dbus_validate_member(name, nil) != 0
    }

    /// True when `name` is a valid error name such as `org.example.Error.NotFound`.
    public static func isValidErrorName(_ name: String) -> Bool {
        noNUL(name) && dbus_validate_error_name(name, nil) != 0
    }

    /// True when `name` is a valid bus name, unique (`:1.42`) or well-known (`org.example.Thing`).
    public static func isValidBusName(_ name: String) -> Bool {
        noNUL(name) && dbus_validate_bus_name(name, nil) != 0
    }

    /// True when `signature` is a valid signature of zero or more complete types.
    public static func isValidSignature(_ signature: String) -> Bool {
        noNUL(signature) && dbus_signature_validate(signature, nil) != 0
    }

    /// True when `signature` is exactly one complete type, such as `a{sv}`.
    public static func isValidSingleSignature(_ signature: String) -> Bool {
        noNUL(signature) && dbus_signature_validate_single(signature, nil) != 0
    }

    /// A Swift string may hold NUL, which a C string would silently cut short.
    static func noNUL(_ string: String) -> Bool {
        !string.utf8.contains(0)
    }

    /// Throws `InvalidArgs` unless `path` is a valid object path.
    static func requireObjectPath(_ path: String) throws {
        guard isValidObjectPath(path) else { throw DBusError.invalidArgs("Invalid object path \(DBusError.quote(path)).") }
    }

    /// Throws `InvalidArgs` unless `name` is a valid interface name.
    static func requireInterface(_ name: String) throws {
        guard isValidInterface(name) else { throw DBusError.invalidArgs("Invalid interface name \(DBusError.quote(name)).") }
    }

    /// Throws `InvalidArgs` unless `name` is a valid member name.
    static func requireMember(_ name: String) throws {
        guard isValidMember(name) else { throw DBusError.invalidArgs("Invalid member name \(DBusError.quote(name)).") }
    }

    /// Throws `InvalidArgs` unless `name` is a valid bus name.
    static func requireBusName(_ name: String) throws {
        guard isValidBusName(name) else { throw DBusError.invalidArgs("Invalid bus name \(DBusError.quote(name)).") }
    }
}
