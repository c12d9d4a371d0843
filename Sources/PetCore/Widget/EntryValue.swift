/// One value of a widget entry, task record or pet dictionary, typed as the D-Bus contract types
/// it (SPEC §6.2), so the daemon's mapping to `a{sv}` is mechanical and PetCore knows no D-Bus.
public enum EntryValue: Hashable, Sendable {
    /// `s`
    case string(String)
    /// `i`
    case int32(Int32)
    /// `x`
    case int64(Int64)
    /// `t`
    case uint64(UInt64)
    /// `d`
    case double(Double)
    /// `b`
    case bool(Bool)
    /// `aa{sv}`
    case records([EntryDictionary])

    /// The D-Bus type signature of this value.
    public var signature: String {
        switch self {
        case .string: return "s"
        case .int32: return "i"
        case .int64: return "x"
        case .uint64: return "t"
        case .double: return "d"
        case .bool: return "b"
        case .records: return "aa{sv}"
        }
    }
}

/// An `a{sv}` as PetCore builds it: a widget entry, a task record or the pet keys.
public typealias EntryDictionary = [String: EntryValue]

extension EntryValue {
    /// An `i` from any integer, clamped into 32 bits (XP keeps counting at the final stage).
    static func int(_ n: Int) -> EntryValue { .int32(Int32(clamping: n)) }
}
