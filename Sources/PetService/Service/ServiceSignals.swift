import PetCore

/// Where the service's signals go (the bus, in the daemon).
public struct ServiceSignals {
    var entryChanged: (WidgetEntry) -> Void
    var tasksChanged: () -> Void
    /// `PropertiesChanged` for the four settings (an import; a `Set` announces its own).
    var settingsChanged: (Settings) -> Void
    var widgetEntryChanged: (WidgetEntry) -> Void

    public init(
        entryChanged: @escaping (WidgetEntry) -> Void, tasksChanged: @escaping () -> Void,
        settingsChanged: @escaping (Settings) -> Void, widgetEntryChanged: @escaping (WidgetEntry) -> Void
    ) {
        self.entryChanged = entryChanged
        self.tasksChanged = tasksChanged
        self.settingsChanged = settingsChanged
        self.widgetEntryChanged = widgetEntryChanged
    }

    /// One of the signals, as a value (held until a reply has gone).
    enum Signal {
        case entryChanged(WidgetEntry)
        case tasksChanged
        case settingsChanged(Settings)
        case widgetEntryChanged(WidgetEntry)
    }

    /// Sends `signal`.
    func send(_ signal: Signal) {
        switch signal {
        case .entryChanged(let entry): entryChanged(entry)
        case .tasksChanged: tasksChanged()
        case .settingsChanged(let settings): settingsChanged(settings)
        case .widgetEntryChanged(let entry): widgetEntryChanged(entry)
        }
    }
}
