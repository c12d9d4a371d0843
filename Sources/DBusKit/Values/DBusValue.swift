/// One D-Bus value of any type, with enough type information to compute its signature.
///
/// Containers carry their element signatures so that empty arrays and dictionaries still have a type.
public enum DBusValue: Equatable, Sendable {
    /// `y`
    case byte(UInt8)
    /// `b`
    case bool(Bool)
    /// `n`
    case int16(Int16)
    /// `q`
    case uint16(UInt16)
    /// `i`
    case int32(Int32)
    /// `u`
    case uint32(UInt32)
    /// `x`
    case int64(Int64)
    /// `t`
    case uint64(UInt64)
    /// `d`
    case double(Double)
    /// `s`: must not contain NUL.
    case string(String)
    /// `o`: must be a valid object path.
    case objectPath(String)
    /// `g`: must be a valid signature.
    case signature(String)
    /// `h`: a file descriptor. Sending duplicates it; a received one is a new descriptor the reader owns.
    case unixFD(Int32)
    /// `a<element>`: every element must have `elementSignature`.
    case array(elementSignature: String, [DBusValue])
    /// `a{<key><value>}`: keys must be of a basic type; entries keep their order.
    case dictionary(keySignature: String, valueSignature: String, [DictEntry])
    /// `(...)`: at least one field.
    case structure([DBusValue])
    /// `v`: any single complete value.
    indirect case variant(DBusValue)

    /// One key–value pair of a ``DBusValue/dictionary(keySignature:valueSignature:_:)``.
    public struct DictEntry: Equatable, Sendable {
        /// The key, of a basic type.
        public var key: DBusValue
        /// The value.
        public var value: DBusValue

        /// Creates an entry.
        public init(key: DBusValue, value: DBusValue) {
            self.key = key
            self.value = value
        }
    }

    /// The D-Bus signature of this value, e.g. `a{sv}`.
    public var signature: String {
        switch self {
        case .byte: "y"
        case .bool: "b"
        case .int16: "n"
        case .uint16: "q"
        case .int32: "i"
        case .uint32: "u"
        case .int64: "x"
        case .uint64: "t"
        case .double: "d"
        case .string: "s"
        case .objectPath: "o"
        case .signature: "g"
        case .unixFD: "h"
        case .array(let element, _): "a" + element
        case .dictionary(let key, let value, _): "a{" + key + value + "}"
        case .structure(let fields): "(" + fields.map(\.signature).joined() + ")"
        case .variant: "v"
        }
    }

    /// The concatenated signature of several values, as in a message body.
    public static func signature(of values: [DBusValue]) -> String {
        values.map(\.signature).joined()
    }
}
