import DBusKit

// A record type whose metatype crosses into @Sendable closures: `SendableMetatype` is Swift 6.2's;
// before it every metatype was Sendable (Debian 13's swiftlang is 6.0.3).
#if compiler(>=6.2)
    typealias SendableBusRecord = BusRecord & SendableMetatype
#else
    typealias SendableBusRecord = BusRecord
#endif

/// One value of a message body as the contract has it: its name and D-Bus type, and how both
/// sides turn it into wire values and back. A member's arguments and reply are made of these, so
/// a type is spelled once, beside its coding.
public struct BusArg<Value>: Sendable {
    /// The name the XML gives it.
    public let name: String
    /// Its D-Bus type.
    public let type: String
    /// As a value (arguments and small replies); nil for what only the daemon writes.
    let value: (@Sendable (Value) -> DBusValue)?
    /// Straight into a body, with no `DBusValue` tree (the large replies); nil when `BodyWriter`
    /// has no top-level form for the type.
    let write: (@Sendable (Value, inout BodyWriter) -> Void)?
    let decode: @Sendable (DBusValue) throws(BusDecodingError) -> Value
}

extension BusArg {
    /// An `s`.
    static func string(_ name: String) -> BusArg<String> {
        .init(name: name, type: "s", value: { .string($0) }, write: nil, decode: typed(name, "s", \.stringValue))
    }

    /// A `b`.
    static func bool(_ name: String) -> BusArg<Bool> {
        .init(
            name: name, type: "b", value: { .bool($0) }, write: { $1.bool($0) }, decode: typed(name, "b", \.boolValue))
    }

    /// An `i`, as an `Int` (the contract's counts and XP are small).
    static func int32(_ name: String) -> BusArg<Int> {
        .init(
            name: name, type: "i", value: { .int32(Int32(clamping: $0)) }, write: nil,
            decode: typed(name, "i") { $0.int32Value.map(Int.init) })
    }

    /// An `x` (instants in Unix seconds).
    static func int64(_ name: String) -> BusArg<Int64> {
        .init(name: name, type: "x", value: { .int64($0) }, write: nil, decode: typed(name, "x", \.int64Value))
    }

    /// An `h`: a file descriptor, the number the receiver got (it must close it).
    static func fileDescriptor(_ name: String) -> BusArg<Int32> {
        .init(name: name, type: "h", value: { .unixFD($0) }, write: nil, decode: typed(name, "h", \.unixFDValue))
    }

    /// An `as`; another type reads as no strings.
    static func strings(_ name: String) -> BusArg<[String]> {
        .init(name: name, type: "as", value: { .stringArray($0) }, write: nil) { value in
            guard case .array("s", let items) = value else { return [] }
            return items.compactMap(\.stringValue)
        }
    }

    /// An `a{sv}` record, written by the daemon and decoded by `decode`.
    static func record<R: SendableBusRecord>(
        _ name: String, _ decode: @escaping @Sendable (DBusValue) throws(BusDecodingError) -> R
    )
        -> BusArg<R>
    {
        .init(name: name, type: "a{sv}", value: nil, write: { $0.encode(into: &$1) }, decode: decode)
    }

    /// An `aa{sv}` list of records; `what` names it in a decoding error.
    static func records<R: SendableBusRecord>(
        _ name: String, _ what: String, _ decode: @escaping @Sendable (DBusValue) throws(BusDecodingError) -> R
    ) -> BusArg<[R]> {
        .init(name: name, type: "aa{sv}", value: nil, write: { $0.encode(into: &$1) }) {
            value throws(BusDecodingError) in
            try decodeRecords(value, what, decode)
        }
    }

    private static func typed<T>(_ name: String, _ type: String, _ extract: @escaping @Sendable (DBusValue) -> T?)
        -> @Sendable (DBusValue) throws(BusDecodingError) -> T
    {
        { value throws(BusDecodingError) in
            guard let result = extract(value) else {
                throw BusDecodingError("\(name) should be '\(type)', not '\(value.signature)'.")
            }
            return result
        }
    }
}
