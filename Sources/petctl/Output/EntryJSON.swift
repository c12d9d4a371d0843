import DBusKit
import PetBus
import PetCore

/// The whole entry as one line of JSON with the contract's keys (petprogress(7) §6.2): written from the
/// entry's own `a{sv}` encoding, so the keys are PetBus's and are not spelled again here.
enum EntryJSON {
    static func line(_ entry: WidgetEntry) -> String { json(entry.dbus) }

    static func json(_ value: DBusValue) -> String {
        switch value {
        case .string(let s), .objectPath(let s), .signature(let s): Escaping.json(s)
        case .bool(let b): b ? "true" : "false"
        case .double(let d): d.isFinite ? "\(d)" : "null"
        case .variant(let inner): json(inner)
        case .array(_, let items): "[" + items.map(json).joined(separator: ",") + "]"
        case .structure(let fields): "[" + fields.map(json).joined(separator: ",") + "]"
        case .dictionary(_, _, let entries):
            "{"
                + entries.map { "\(Escaping.json($0.key.stringValue ?? "\($0.key)")):\(json($0.value))" }
                .joined(separator: ",") + "}"
        default: value.integerValue.map { "\($0)" } ?? (value.uint64Value.map { "\($0)" } ?? "null")
        }
    }
}
