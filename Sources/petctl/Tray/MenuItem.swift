import DBusKit

/// One dbusmenu item: its id, its non-default properties and its children (com.canonical.dbusmenu).
struct MenuItem: Equatable {
    /// What clicking the item does.
    enum Action: Hashable {
        case none
        case done(String)
        case snooze(String)
        case undo(String)
        case openToday
        case startDaemon
    }

    var id: Int32
    var label: String
    var enabled = true
    var separator = false
    var action: Action = .none
    var children: [MenuItem] = []

    /// The properties a host needs, defaults left out (`enabled` true, `type` standard…), as the
    /// protocol asks; `names` empty means all of them.
    func properties(_ names: [String] = []) -> [(String, DBusValue)] {
        var all: [(String, DBusValue)] = []
        if separator {
            all.append(("type", .string("separator")))
        } else if !label.isEmpty {
            all.append(("label", .string(label)))
        }
        if !enabled { all.append(("enabled", .bool(false))) }
        if !children.isEmpty { all.append(("children-display", .string("submenu"))) }
        return names.isEmpty ? all : all.filter { names.contains($0.0) }
    }

    /// `(ia{sv}av)`, with children down to `depth` more levels (−1: all).
    func layout(depth: Int32, names: [String]) -> DBusValue {
        let kids: [DBusValue] =
            depth == 0 ? [] : children.map { .variant($0.layout(depth: depth < 0 ? -1 : depth - 1, names: names)) }
        return .structure([.int32(id), .vardict(properties(names)), .array(elementSignature: "v", kids)])
    }

    /// This item or the descendant with `id`.
    func find(_ id: Int32) -> MenuItem? {
        if self.id == id { return self }
        for child in children { if let found = child.find(id) { return found } }
        return nil
    }

    /// A label shown as typed: a single `_` would mark an access key, so every one is doubled.
    static func literal(_ text: String) -> String {
        text.replacing("_", with: "__")
    }
}
