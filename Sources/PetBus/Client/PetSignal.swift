import PetCore

/// A signal from the daemon, decoded (petprogress(7) §6.1).
public enum PetSignal: Equatable, Sendable {
    /// The hourly entry (at each tick, and only then).
    case entryChanged(WidgetEntry)
    /// The open day's tasks changed.
    case tasksChanged
    /// `org.freedesktop.DBus.Properties.PropertiesChanged` for the interface: the names of the
    /// changed properties, and the new `WidgetEntry` when it is among them.
    case propertiesChanged(names: [String], widgetEntry: WidgetEntry?)
}
