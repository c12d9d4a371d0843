import DBusKit
import PetCore

/// `Import`'s reply (petprogress(7) §6.1): what the document holds, and what was done with it.
public struct ImportSummary: Hashable, Sendable {
    /// Whether the store was replaced (false for a check).
    public var imported: Bool
    /// Where the previous data was kept (a directory inside the data directory); "" when nothing was replaced.
    public var keptIn: String
    /// Closed days in its history, and their tasks.
    public var days: Int
    public var historyTasks: Int
    /// Its first and last closed days' keys; "" when it has none.
    public var firstDay: String
    public var lastDay: String
    /// Its open day, and that day's and the next day's tasks.
    public var openDay: String
    public var openTasks: Int
    public var tomorrowTasks: Int
    public var templates: Int
    public var restDays: Int
    /// Its live pet, by the stage table in force.
    public var stageIndex: Int
    public var stageName: String
    public var stageXP: Int
    /// For a check: whether the store holds data, so that a real import would need replace
    /// (false after an import, and from a daemon that predates the key).
    public var needsReplace: Bool

    public init(
        imported: Bool, keptIn: String, days: Int, historyTasks: Int, firstDay: String, lastDay: String,
        openDay: String, openTasks: Int, tomorrowTasks: Int, templates: Int, restDays: Int, stageIndex: Int,
        stageName: String, stageXP: Int, needsReplace: Bool = false
    ) {
        self.imported = imported
        self.keptIn = keptIn
        self.days = days
        self.historyTasks = historyTasks
        self.firstDay = firstDay
        self.lastDay = lastDay
        self.openDay = openDay
        self.openTasks = openTasks
        self.tomorrowTasks = tomorrowTasks
        self.templates = templates
        self.restDays = restDays
        self.stageIndex = stageIndex
        self.stageName = stageName
        self.stageXP = stageXP
        self.needsReplace = needsReplace
    }

    enum Key: String {
        case imported
        case keptIn = "kept_in"
        case days
        case historyTasks = "history_tasks"
        case firstDay = "first_day"
        case lastDay = "last_day"
        case openDay = "open_day"
        case openTasks = "open_tasks"
        case tomorrowTasks = "tomorrow_tasks"
        case templates
        case restDays = "rest_days"
        case stageIndex = "stage_index"
        case stageName = "stage_name"
        case stageXP = "stage_xp"
        case needsReplace = "needs_replace"
    }

    /// The summary as an `a{sv}`.
    public var dbus: DBusValue { fields.value }

    /// Writes the summary's `a{sv}` straight into a message body (the daemon's reply).
    public func encode(into body: inout BodyWriter) { fields.write(into: &body) }

    private var fields: VardictWriter {
        var w = VardictWriter()
        w.add(Key.imported, imported)
        w.add(Key.keptIn, keptIn)
        w.add(Key.days, int: days)
        w.add(Key.historyTasks, int: historyTasks)
        w.add(Key.firstDay, firstDay)
        w.add(Key.lastDay, lastDay)
        w.add(Key.openDay, openDay)
        w.add(Key.openTasks, int: openTasks)
        w.add(Key.tomorrowTasks, int: tomorrowTasks)
        w.add(Key.templates, int: templates)
        w.add(Key.restDays, int: restDays)
        w.add(Key.stageIndex, int: stageIndex)
        w.add(Key.stageName, stageName)
        w.add(Key.stageXP, int: stageXP)
        w.add(Key.needsReplace, needsReplace)
        return w
    }

    /// Decodes a summary.
    public init(dbus value: DBusValue) throws(BusDecodingError) {
        let r = try VardictReader(value, "The import summary")
        self.init(
            imported: try r.bool(Key.imported), keptIn: try r.string(Key.keptIn), days: try r.int(Key.days),
            historyTasks: try r.int(Key.historyTasks), firstDay: try r.string(Key.firstDay),
            lastDay: try r.string(Key.lastDay), openDay: try r.string(Key.openDay), openTasks: try r.int(Key.openTasks),
            tomorrowTasks: try r.int(Key.tomorrowTasks), templates: try r.int(Key.templates),
            restDays: try r.int(Key.restDays), stageIndex: try r.int(Key.stageIndex),
            stageName: try r.string(Key.stageName), stageXP: try r.int(Key.stageXP),
            needsReplace: try r.bool(Key.needsReplace, absent: false))
    }
}

extension ImportSummary: BusRecord {}
