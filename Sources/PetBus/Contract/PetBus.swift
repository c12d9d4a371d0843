/// The names of the D-Bus contract (SPEC §6): the one place they are spelled in the sources.
public enum PetBus {
    /// The well-known bus name.
    public static let name = "io.petprogress.PetProgress1"
    /// The one exported object.
    public static let path = "/io/petprogress/PetProgress1"
    /// The interface.
    public static let interface = "io.petprogress.PetProgress1"
    /// The prefix of the contract's error names: `io.petprogress.PetProgress1.Error.<Name>`.
    public static let errorPrefix = "io.petprogress.PetProgress1.Error."

    /// The interface's methods, with their argument and reply signatures.
    public enum Method: String, CaseIterable, Sendable {
        case getWidgetEntry = "GetWidgetEntry"
        case getTimeline = "GetTimeline"
        case markNextDone = "MarkNextDone"
        case snoozeNext = "SnoozeNext"
        case markDone = "MarkDone"
        case undo = "Undo"
        case snooze = "Snooze"
        case addTask = "AddTask"
        case addTaskFor = "AddTaskFor"
        case updateTask = "UpdateTask"
        case deleteTask = "DeleteTask"
        case listTasks = "ListTasks"
        case listTemplates = "ListTemplates"
        case getPet = "GetPet"
        case setRest = "SetRest"
        case listRestDays = "ListRestDays"
        case getHistory = "GetHistory"
        case getStatus = "GetStatus"

        /// The signature a call must carry.
        public var inSignature: String {
            switch self {
            case .getWidgetEntry, .getTimeline, .markNextDone, .snoozeNext, .listTemplates, .getPet, .listRestDays,
                .getStatus:
                ""
            case .markDone, .undo, .snooze, .deleteTask, .listTasks: "s"
            case .addTask, .getHistory: "ss"
            case .setRest: "ssb"
            case .updateTask: "sss"
            case .addTaskFor: "ssss"
            }
        }

        /// The signature of the reply.
        public var outSignature: String {
            switch self {
            case .getWidgetEntry, .getPet, .getStatus: "a{sv}"
            case .getTimeline, .listTasks, .listTemplates: "aa{sv}"
            case .listRestDays: "as"
            case .getHistory: "aa{sv}b"
            case .markNextDone: "si"
            case .snoozeNext: "sx"
            case .markDone: "i"
            case .snooze: "x"
            case .addTask, .addTaskFor: "s"
            case .undo, .updateTask, .deleteTask, .setRest: ""
            }
        }
    }

    /// The interface's signals.
    public enum Signal: String, CaseIterable, Sendable {
        /// `a{sv}`: at each tick, and only then.
        case entryChanged = "EntryChanged"
        /// No arguments: after any change to the open day's tasks (or to whether it is a rest day).
        case tasksChanged = "TasksChanged"
    }

    /// The interface's properties.
    public enum Property: String, CaseIterable, Sendable {
        case widgetEntry = "WidgetEntry"
        case resetTime = "ResetTime"
        case graceMinutes = "GraceMinutes"
        case snoozeMinutes = "SnoozeMinutes"
        case rollover = "Rollover"

        /// The property's D-Bus type.
        public var signature: String {
            switch self {
            case .widgetEntry: "a{sv}"
            case .resetTime: "s"
            case .graceMinutes, .snoozeMinutes: "u"
            case .rollover: "b"
            }
        }
    }
}
