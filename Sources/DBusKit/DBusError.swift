/// A D-Bus error: a dotted error name and a human sentence.
///
/// Method handlers throw it to send an error reply; the client side throws it when a call fails, with
/// the name the remote side (or libdbus, e.g. `NoReply` on a timeout) gave.
public struct DBusError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The error name, e.g. `org.freedesktop.DBus.Error.InvalidArgs`.
    public var name: String
    /// One human sentence saying what went wrong.
    public var message: String

    /// Creates an error with a name and a sentence.
    public init(name: String, message: String) {
        self.name = name
        self.message = message
    }

    /// `name: message`.
    public var description: String { message.isEmpty ? name : "\(name): \(message)" }

    /// What an error sentence quotes of an argument: at most 40 characters of it, in single
    /// quotes, with an ellipsis when there was more and `?` for a control character
    /// (petprogress(7) §6: a 40 MiB name is not echoed back whole).
    public static func quote(_ text: String) -> String {
        var shown = ""
        var count = 0
        for scalar in text.unicodeScalars {
            guard count < 40 else {
                shown += "…"
                break
            }
            shown.unicodeScalars.append(scalar.properties.generalCategory == .control ? "?" : scalar)
            count += 1
        }
        return "'" + shown + "'"
    }

    /// The standard error names of the D-Bus specification that DBusKit uses.
    public enum Name {
        /// A generic failure.
        public static let failed = "org.freedesktop.DBus.Error.Failed"
        /// libdbus could not allocate memory.
        public static let noMemory = "org.freedesktop.DBus.Error.NoMemory"
        /// Wrong arguments or argument signature.
        public static let invalidArgs = "org.freedesktop.DBus.Error.InvalidArgs"
        /// No such method on the object.
        public static let unknownMethod = "org.freedesktop.DBus.Error.UnknownMethod"
        /// No object at that path.
        public static let unknownObject = "org.freedesktop.DBus.Error.UnknownObject"
        /// No such interface on the object.
        public static let unknownInterface = "org.freedesktop.DBus.Error.UnknownInterface"
        /// No such property on the interface.
        public static let unknownProperty = "org.freedesktop.DBus.Error.UnknownProperty"
        /// The property cannot be set.
        public static let propertyReadOnly = "org.freedesktop.DBus.Error.PropertyReadOnly"
        /// The call timed out or the peer went away without replying.
        public static let noReply = "org.freedesktop.DBus.Error.NoReply"
        /// A caller went over a limit (here: too many of its answers not yet written).
        public static let limitsExceeded = "org.freedesktop.DBus.Error.LimitsExceeded"
        /// The connection is closed.
        public static let disconnected = "org.freedesktop.DBus.Error.Disconnected"
        /// The destination name has no owner.
        public static let serviceUnknown = "org.freedesktop.DBus.Error.ServiceUnknown"
    }

    /// `InvalidArgs` with a sentence.
    public static func invalidArgs(_ message: String) -> DBusError {
        DBusError(name: Name.invalidArgs, message: message)
    }

    /// `Failed` with a sentence.
    public static func failed(_ message: String) -> DBusError {
        DBusError(name: Name.failed, message: message)
    }

    /// `Disconnected`: the connection to the bus is gone.
    public static let disconnected = DBusError(name: Name.disconnected, message: "The connection to the bus is closed.")

    static func noMemory(_ what: StaticString) -> DBusError {
        DBusError(name: Name.noMemory, message: "Out of memory in \(what).")
    }
}
