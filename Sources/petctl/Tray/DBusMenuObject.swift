import DBusKit

/// `/MenuBar`: the item's menu as `com.canonical.dbusmenu` (protocol version 3).
enum DBusMenuObject {
    static let path = "/MenuBar"
    static let interface = "com.canonical.dbusmenu"

    /// The menu as it stands, and what a click does.
    struct Source {
        var menu: () -> MenuModel
        var perform: (MenuItem.Action) -> Void
    }

    static func make(_ source: Source) throws -> ExportedObject {
        let methods = [
            ExportedObject.Method("GetLayout", in: "iias", out: "u(ia{sv}av)") { call in
                let menu = source.menu()
                guard let item = menu.root.find(try call.int32(0)) else { throw unknown(try call.int32(0)) }
                return [.uint32(menu.revision), item.layout(depth: try call.int32(1), names: try strings(call, 2))]
            },
            ExportedObject.Method("GetGroupProperties", in: "aias", out: "a(ia{sv})") { call in
                let menu = source.menu()
                let names = try strings(call, 1)
                // Each id once, and only the menu's own: the reply never outgrows the menu.
                var seen = Set<Int32>()
                let ids = ((try call.argument(0)).arrayValues?.compactMap(\.int32Value) ?? []).filter {
                    seen.insert($0).inserted
                }
                let found = ids.compactMap { menu.root.find($0) }.map {
                    DBusValue.structure([.int32($0.id), .vardict($0.properties(names))])
                }
                return [.array(elementSignature: "(ia{sv})", found)]
            },
            ExportedObject.Method("GetProperty", in: "is", out: "v") { call in
                guard let item = source.menu().root.find(try call.int32(0)) else { throw unknown(try call.int32(0)) }
                let name = try call.string(1)
                guard let value = item.properties([name]).first?.1 else {
                    // not translated: a D-Bus error message, for the tray host's log.
                    throw DBusError.invalidArgs("Menu item \(item.id) has no property \(DBusError.quote(name)) set.")
                }
                return [.variant(value)]
            },
            ExportedObject.Method("Event", in: "isvu") { call in
                try event(source, id: try call.int32(0), name: try call.string(1))
                return []
            },
            ExportedObject.Method("EventGroup", in: "a(isvu)", out: "ai") { call in
                var errors: [DBusValue] = []
                for entry in (try call.argument(0)).arrayValues ?? [] {
                    guard let fields = entry.structFields, let id = fields.first?.int32Value,
                        let name = fields.dropFirst().first?.stringValue
                    else { continue }
                    do { try event(source, id: id, name: name) } catch { errors.append(.int32(id)) }
                }
                return [.array(elementSignature: "i", errors)]
            },
            // The menu is rebuilt as soon as the daemon's tasks change: never stale when shown.
            ExportedObject.Method("AboutToShow", in: "i", out: "b") { call in
                guard source.menu().root.find(try call.int32(0)) != nil else { throw unknown(try call.int32(0)) }
                return [.bool(false)]
            },
            ExportedObject.Method("AboutToShowGroup", in: "ai", out: "aiai") { call in
                let ids = (try call.argument(0)).arrayValues?.compactMap(\.int32Value) ?? []
                let errors = ids.filter { source.menu().root.find($0) == nil }.map(DBusValue.int32)
                return [.array(elementSignature: "i", []), .array(elementSignature: "i", errors)]
            },
        ]
        let properties = [
            ExportedObject.Property("Version", signature: "u") { .uint32(3) },
            ExportedObject.Property("TextDirection", signature: "s") { .string("ltr") },
            ExportedObject.Property("Status", signature: "s") { .string("normal") },
            ExportedObject.Property("IconThemePath", signature: "as") { .stringArray([]) },
        ]
        let object = try ExportedObject(
            path: path, interfaces: [ExportedObject.Interface(interface, methods: methods, properties: properties)],
            introspectionXML: TrayIntrospection.menu)
        // The same bounds as the daemon's (petprogress(7) §6): a host asks for a few dozen ids and
        // names; a call holding a million is refused before one is read.
        object.stringLimit = 4096
        object.valueBudget = 4096
        return object
    }

    /// A `clicked` on an item with an action performs it; other events (`opened`, `hovered`…) are
    /// noted by hosts only.
    private static func event(_ source: Source, id: Int32, name: String) throws {
        guard let item = source.menu().root.find(id) else { throw unknown(id) }
        if name == "clicked", item.enabled, item.action != .none { source.perform(item.action) }
    }

    private static func unknown(_ id: Int32) -> DBusError {
        DBusError.invalidArgs("No menu item \(id).")  // not translated: a D-Bus error message
    }

    private static func strings(_ call: MethodCall, _ index: Int) throws -> [String] {
        (try call.argument(index)).arrayValues?.compactMap(\.stringValue) ?? []
    }
}
