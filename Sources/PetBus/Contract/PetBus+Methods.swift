import DBusKit
import PetCore

/// The contract's methods, one typed entry each: the table the daemon's wiring, ``PetClient``
/// and the signatures come from, and which a test checks against `dbus/io.petprogress.PetProgress1.xml`.
/// Adding a method: an entry here (and in ``all``), its handler in the daemon, its documentation
/// in the XML.
extension PetBus {
    public enum Methods {
        public static let getWidgetEntry = Member<Void, WidgetEntry>(
            "GetWidgetEntry", in: .none, out: .of(.record("entry", WidgetEntry.init(dbus:))))
        public static let getTimeline = Member<Void, [WidgetEntry]>(
            "GetTimeline", in: .none, out: .of(.records("entries", "The timeline", WidgetEntry.init(dbus:))))
        public static let markNextDone = Member<Void, (String, Int)>(
            "MarkNextDone", in: .none, out: .of(.string("id"), .int32("xp_delta")))
        public static let snoozeNext = Member<Void, (String, Instant)>(
            "SnoozeNext", in: .none, out: .of(.string("id"), .int64("until")))
        public static let markDone = Member<String, Int>(
            "MarkDone", in: .of(.string("id")), out: .of(.int32("xp_delta")))
        public static let undo = Member<String, Void>("Undo", in: .of(.string("id")), out: .none)
        public static let snooze = Member<String, Instant>("Snooze", in: .of(.string("id")), out: .of(.int64("until")))
        public static let addTask = Member<(String, String), String>(
            "AddTask", in: .of(.string("title"), .string("time")), out: .of(.string("id")))
        public static let addTaskFor = Member<(String, String, String, String), String>(
            "AddTaskFor", in: .of(.string("title"), .string("time"), .string("day"), .string("repeat")),
            out: .of(.string("id")))
        public static let updateTask = Member<(String, String, String), Void>(
            "UpdateTask", in: .of(.string("id"), .string("title"), .string("time")), out: .none)
        public static let deleteTask = Member<String, Void>("DeleteTask", in: .of(.string("id")), out: .none)
        public static let listTasks = Member<String, [TaskRecord]>(
            "ListTasks", in: .of(.string("day")), out: .of(.records("tasks", "The task list", TaskRecord.init(dbus:))))
        public static let listTemplates = Member<Void, [TemplateRecord]>(
            "ListTemplates", in: .none,
            out: .of(.records("templates", "The template list", TemplateRecord.init(dbus:))))
        public static let getPet = Member<Void, PetView>(
            "GetPet", in: .none, out: .of(.record("pet", PetView.init(dbus:))))
        public static let setRest = Member<(String, String, Bool), Void>(
            "SetRest", in: .of(.string("from"), .string("to"), .bool("rest")), out: .none)
        public static let listRestDays = Member<Void, [String]>("ListRestDays", in: .none, out: .of(.strings("days")))
        public static let getHistory = Member<(String, String), ([HistoryRecord], Bool)>(
            "GetHistory", in: .of(.string("from"), .string("to")),
            out: .of(.records("days", "The history", HistoryRecord.init(dbus:)), .bool("more")))
        public static let getStatus = Member<Void, ServiceStatus>(
            "GetStatus", in: .none, out: .of(.record("status", ServiceStatus.init(dbus:))))
        public static let acknowledgeProblems = Member<Void, Void>("AcknowledgeProblems", in: .none, out: .none)
        public static let exportStore = Member<Void, String>("ExportStore", in: .none, out: .of(.string("store")))
        public static let exportStorePart = Member<String, (String, String, Bool)>(
            "ExportStorePart", in: .of(.string("after")), out: .of(.string("part"), .string("last_day"), .bool("more")))
        public static let importDocument = Member<(Int32, Bool, Bool), ImportSummary>(
            "Import", in: .of(.fileDescriptor("document"), .bool("replace"), .bool("dry_run")),
            out: .of(.record("summary", ImportSummary.init(dbus:))))
        public static let listGenerations = Member<Void, [GenerationRecord]>(
            "ListGenerations", in: .none,
            out: .of(.records("generations", "The generation list", GenerationRecord.init(dbus:))))
        public static let restore = Member<(String, Bool), RestoreSummary>(
            "Restore", in: .of(.string("name"), .bool("dry_run")),
            out: .of(.record("summary", RestoreSummary.init(dbus:))))

        /// Every method, in the XML's order.
        public static let all: [InterfaceDescription.Method] = [
            getWidgetEntry.description, getTimeline.description, markNextDone.description, snoozeNext.description,
            markDone.description, undo.description, snooze.description, addTask.description, addTaskFor.description,
            updateTask.description, deleteTask.description, listTasks.description, listTemplates.description,
            getPet.description, setRest.description, listRestDays.description, getHistory.description,
            acknowledgeProblems.description, getStatus.description, exportStore.description,
            exportStorePart.description, importDocument.description,
            listGenerations.description, restore.description,
        ]
    }

    /// The whole interface as the table describes it: methods, signals, properties.
    public static var description: InterfaceDescription {
        InterfaceDescription(
            name: interface, methods: Methods.all, signals: Signal.allCases.map(\.description),
            properties: Property.allCases.map(\.description))
    }
}
