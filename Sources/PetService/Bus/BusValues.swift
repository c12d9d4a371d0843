import DBusKit
import PetCore

/// PetCore's typed entry values as D-Bus values: the one mapping from the contract's key types.
extension EntryValue {
    var dbus: DBusValue {
        switch self {
        case .string(let v): return .string(v)
        case .int32(let v): return .int32(v)
        case .int64(let v): return .int64(v)
        case .uint64(let v): return .uint64(v)
        case .double(let v): return .double(v)
        case .bool(let v): return .bool(v)
        case .records(let records): return .array(elementSignature: "a{sv}", records.map(\.dbus))
        }
    }
}

extension Dictionary where Key == String, Value == EntryValue {
    /// This dictionary as an `a{sv}`.
    var dbus: DBusValue { .vardict(mapValues(\.dbus)) }
}

extension Array where Element == EntryDictionary {
    /// These dictionaries as an `aa{sv}`.
    var dbus: DBusValue { .array(elementSignature: "a{sv}", map(\.dbus)) }
}

extension PetError {
    /// The contract's error: `io.petprogress.PetProgress1.Error.<Name>` with the sentence.
    var dbus: DBusError { DBusError(name: "\(BusContract.name).Error.\(kind.rawValue)", message: message) }
}
