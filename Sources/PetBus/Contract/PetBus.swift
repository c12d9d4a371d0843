/// The names of the D-Bus contract (petprogress(7) §6): the one place they are spelled in the sources.
public enum PetBus {
    /// The well-known bus name.
    public static let name = "io.petprogress.PetProgress1"
    /// The one exported object.
    public static let path = "/io/petprogress/PetProgress1"
    /// The interface.
    public static let interface = "io.petprogress.PetProgress1"
    /// The prefix of the contract's error names: `io.petprogress.PetProgress1.Error.<Name>`.
    public static let errorPrefix = "io.petprogress.PetProgress1.Error."

    // The methods: the typed table in `PetBus+Methods.swift`.

    /// The interface's signals.
    public enum Signal: String, CaseIterable, Sendable {
        /// `a{sv}`: at each tick, and only then.
        case entryChanged = "EntryChanged"
        /// No arguments: after any change to the open day's tasks (or to whether it is a rest day).
        case tasksChanged = "TasksChanged"

        /// The signal as the XML describes it.
        public var description: InterfaceDescription.Method {
            switch self {
            case .entryChanged: .init(name: rawValue, args: [.init(name: "entry", type: "a{sv}", direction: "out")])
            case .tasksChanged: .init(name: rawValue, args: [])
            }
        }
    }

    /// The interface's properties.
    public enum Property: String, CaseIterable, Sendable {
        case widgetEntry = "WidgetEntry"
        case resetTime = "ResetTime"
        case graceMinutes = "GraceMinutes"
        case snoozeMinutes = "SnoozeMinutes"
        case rollover = "Rollover"
        case stages = "Stages"

        /// The property's D-Bus type.
        public var signature: String {
            switch self {
            case .widgetEntry: "a{sv}"
            case .resetTime: "s"
            case .graceMinutes, .snoozeMinutes: "u"
            case .rollover: "b"
            case .stages: "aa{sv}"
            }
        }

        /// Whether `Set` is allowed: only the settings can be set.
        public var isWritable: Bool { self != .widgetEntry && self != .stages }

        /// The property as the XML describes it: each emits `PropertiesChanged` with its value,
        /// except `Stages`, which never changes while the daemon runs (`const`).
        public var description: InterfaceDescription.Property {
            .init(
                name: rawValue, type: signature, access: isWritable ? "readwrite" : "read",
                annotations: ["org.freedesktop.DBus.Property.EmitsChangedSignal": self == .stages ? "const" : "true"])
        }
    }
}
