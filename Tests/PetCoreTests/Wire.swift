import DBusKit
import PetBus
import PetCore

// These tests read PetCore's values as a client receives them: through their PetBus encoding, key
// by key, so the expected strings below spell the contract's keys and types (petprogress(7) §6.2).

extension WidgetEntry {
    subscript(key: String) -> DBusValue? { dbus[key] }
}

extension TaskRecord {
    subscript(key: String) -> DBusValue? { dbus[key] }
}

extension PetView {
    subscript(key: String) -> DBusValue? { dbus[key] }
}

extension DBusValue {
    /// The value of `key` in an `a{sv}`.
    subscript(key: String) -> DBusValue? { vardictValue?[key] }
}

/// Renders a value canonically: an `a{sv}` with sorted keys, each value with its D-Bus type.
func render(_ v: DBusValue?) -> String {
    switch v {
    case .string(let s)?: return "s:\"\(s)\""
    case .int32(let n)?: return "i:\(n)"
    case .int64(let n)?: return "x:\(n)"
    case .uint64(let n)?: return "t:\(n)"
    case .double(let n)?: return "d:\(n)"
    case .bool(let b)?: return "b:\(b)"
    case .array("a{sv}", let records)?:
        return "[" + records.map { "{" + render($0) + "}" }.joined(separator: ", ") + "]"
    case .dictionary("s", "v", _)?:
        let d = v?.vardictValue ?? [:]
        return d.keys.sorted().map { "\($0)=\(render(d[$0]))" }.joined(separator: " ")
    case let other?: return "?\(other.signature)"
    case nil: return "-"
    }
}

func render(_ e: WidgetEntry) -> String { render(e.dbus) }
func render(_ p: PetView) -> String { render(p.dbus) }
