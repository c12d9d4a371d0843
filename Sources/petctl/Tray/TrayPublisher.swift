import DBusKit

/// The item's side of the bus: exports the two objects, and after each change emits the signals
/// hosts re-read properties on — the property is already new when its signal leaves.
final class TrayPublisher {
    let connection: Connection
    let iconThemePath: String
    private(set) var menu = MenuModel()
    /// The form and whether it sleeps: the pixmap is built from them when a host asks (a few times
    /// an hour), not kept (as 18,576 D-Bus values it would hold 0.6 MB for nothing).
    private var pixmapKey = ("petprogress-tadpole", false)

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
                    state: state,
                    pixmap: { [unowned self] in TrayPixmap.value(iconName: pixmapKey.0, sleeping: pixmapKey.1) },
                    iconThemePath: iconThemePath, activate: activate
                )))
        try connection.export(DBusMenuObject.make(.init(menu: { [unowned self] in menu }, perform: perform)))
    }

    /// Brings the pixmap and the menu up to `new` and signals every difference from `old`.
    func publish(old: TrayState, new: TrayState) {
        // Sleeping, the last pet seen (or the first form) is drawn dimmed; hosts that look the
        // name up get an empty name and draw the pixmap.
        let key = (new.pet?.iconName ?? "petprogress-tadpole", !new.running)
        pixmapKey = key
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
