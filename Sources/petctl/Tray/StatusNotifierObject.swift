import DBusKit

/// `/StatusNotifierItem`: the `org.kde.StatusNotifierItem` interface (the name every host uses),
/// its properties with the specification's signatures, and its four methods.
enum StatusNotifierObject {
    static let path = "/StatusNotifierItem"
    static let interface = "org.kde.StatusNotifierItem"

    /// What the properties read and the methods call: the tray's current values.
    struct Source {
        var state: () -> TrayState
        var pixmap: () -> DBusValue
        var iconThemePath: String
        var activate: () -> Void
    }

    static func make(_ source: Source) throws -> ExportedObject {
        let empty = DBusValue.array(elementSignature: "(iiay)", [])
        func text(_ name: String, _ get: @escaping () -> String) -> ExportedObject.Property {
            ExportedObject.Property(name, signature: "s") { .string(get()) }
        }
        let properties = [
            text("Category") { "ApplicationStatus" },
            text("Id") { "petprogress" },
            text("Title") { source.state().title },
            text("Status") { source.state().status },
            ExportedObject.Property("WindowId", signature: "i") { .int32(0) },
            text("IconName") { source.state().iconName },
            ExportedObject.Property("IconPixmap", signature: "a(iiay)") { source.pixmap() },
            text("IconThemePath") { source.iconThemePath },
            text("OverlayIconName") { "" },
            ExportedObject.Property("OverlayIconPixmap", signature: "a(iiay)") { empty },
            text("AttentionIconName") { "" },
            ExportedObject.Property("AttentionIconPixmap", signature: "a(iiay)") { empty },
            text("AttentionMovieName") { "" },
            ExportedObject.Property("ToolTip", signature: "(sa(iiay)ss)") {
                let state = source.state()
                return .structure([.string(state.iconName), empty, .string(state.petLine), .string(state.toolTipText)])
            },
            ExportedObject.Property("ItemIsMenu", signature: "b") { .bool(false) },
            ExportedObject.Property("Menu", signature: "o") { .objectPath(DBusMenuObject.path) },
            text("XAyatanaLabel") { source.state().label },
            text("XAyatanaLabelGuide") { "" },
            ExportedObject.Property("XAyatanaOrderingIndex", signature: "u") { .uint32(0) },
        ]
        // Activate (a left click on most hosts) and SecondaryActivate (a middle click) both open
        // Today; ContextMenu has nothing to draw (the menu is the dbusmenu at `Menu`); Scroll does
        // nothing: a wheel passing over a panel must not change the day (petprogress(7) §8).
        let methods = [
            ExportedObject.Method("Activate", in: "ii") { _ in
                source.activate()
                return []
            },
            ExportedObject.Method("SecondaryActivate", in: "ii") { _ in
                source.activate()
                return []
            },
            ExportedObject.Method("ContextMenu", in: "ii") { _ in [] },
            ExportedObject.Method("Scroll", in: "is") { _ in [] },
        ]
        let object = try ExportedObject(
            path: path, interfaces: [ExportedObject.Interface(interface, methods: methods, properties: properties)],
            introspectionXML: TrayIntrospection.item)
        object.stringLimit = 4096
        object.valueBudget = 64
        return object
    }
}
