import DBusKit

/// The item's side of the bus: exports the two objects, and after each change emits the signals
/// hosts re-read properties on — the property is already new when its signal leaves.
final class TrayPublisher {
    let connection: Connection
    let iconThemePath: String
    private(set) var menu = MenuModel()
    private var pixmap = DBusValue.array(elementSignature: "(iiay)", [])
    private var pixmapKey: (String, Bool)?

    init(connection: Connection, iconThemePath: String) {
        self.connection = connection
        self.iconThemePath = iconThemePath
    }

    func export(
        state: @escaping () -> TrayState, activate: @escaping () -> Void, perform: @escaping (MenuItem.Action) -> Void
    )
        throws
    {
        try connection.export(
            StatusNotifierObject.make(
                .init(
                    state: state, pixmap: { [unowned self] in pixmap }, iconThemePath: iconThemePath, activate: activate
                )))
        try connection.export(DBusMenuObject.make(.init(menu: { [unowned self] in menu }, perform: perform)))
    }

    /// Brings the pixmap and the menu up to `new` and signals every difference from `old`.
    func publish(old: TrayState, new: TrayState) {
        // Sleeping, the last pet seen (or the first form) is drawn dimmed; hosts that look the
        // name up get an empty name and draw the pixmap.
        let key = (new.pet?.iconName ?? "petprogress-tadpole", !new.running)
        if pixmapKey.map({ $0 != key }) ?? true {
            pixmapKey = key
            pixmap = TrayPixmap.value(iconName: key.0, sleeping: key.1)
        }
        let path = StatusNotifierObject.path
        let interface = StatusNotifierObject.interface
        func emit(_ name: String, _ arguments: [DBusValue] = []) {
            try? connection.emitSignal(path: path, interface: interface, name: name, arguments: arguments)
        }
        if old.title != new.title { emit("NewTitle") }
        if old.iconName != new.iconName || old.pet?.iconName != new.pet?.iconName || old.running != new.running {
            emit("NewIcon")
        }
        if old.petLine != new.petLine || old.toolTipText != new.toolTipText || old.iconName != new.iconName {
            emit("NewToolTip")
        }
        if old.status != new.status { emit("NewStatus", [.string(new.status)]) }
        if old.label != new.label { emit("XAyatanaNewLabel", [.string(new.label), .string("")]) }
        if menu.update(new) {
            try? connection.emitSignal(
                path: DBusMenuObject.path, interface: DBusMenuObject.interface, name: "LayoutUpdated",
                arguments: [.uint32(menu.revision), .int32(0)])
        }
    }
}
