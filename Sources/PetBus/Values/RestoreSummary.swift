import DBusKit
import PetCore

/// `Restore`'s reply (petprogress(7) §6.1): what was, or would be, set aside, and the pet before
/// and after.
public struct RestoreSummary: Hashable, Sendable {
    /// Whether the store was restored (false for a check).
    public var restored: Bool
    public var name: String
    /// Where the replaced data was kept ("" on a check).
    public var keptIn: String
    /// The closed days whose history is set aside, the first and last of them ("" when none).
    public var daysSetAside: Int
    public var firstDaySetAside: String
    public var lastDaySetAside: String
    /// The restored state's open day and last closed day ("" when none), before any catch-up.
    public var openDay: String
    public var lastClosedDay: String
    /// The live pet now, and the pet of the generation.
    public var stageNameBefore: String
    public var stageIndexBefore: Int
    public var stageXPBefore: Int
    public var stageNameAfter: String
    public var stageIndexAfter: Int
    public var stageXPAfter: Int

    public init(
        restored: Bool, name: String, keptIn: String, daysSetAside: Int, firstDaySetAside: String,
        lastDaySetAside: String, openDay: String, lastClosedDay: String, stageNameBefore: String,
        stageIndexBefore: Int, stageXPBefore: Int, stageNameAfter: String, stageIndexAfter: Int, stageXPAfter: Int
    ) {
        self.restored = restored
        self.name = name
        self.keptIn = keptIn
        self.daysSetAside = daysSetAside
        self.firstDaySetAside = firstDaySetAside
        self.lastDaySetAside = lastDaySetAside
        self.openDay = openDay
        self.lastClosedDay = lastClosedDay
        self.stageNameBefore = stageNameBefore
        self.stageIndexBefore = stageIndexBefore
        self.stageXPBefore = stageXPBefore
        self.stageNameAfter = stageNameAfter
        self.stageIndexAfter = stageIndexAfter
        self.stageXPAfter = stageXPAfter
    }

    enum Key: String {
        case restored, name
        case keptIn = "kept_in"
        case daysSetAside = "days_set_aside"
        case firstDaySetAside = "first_day_set_aside"
        case lastDaySetAside = "last_day_set_aside"
        case openDay = "open_day"
        case lastClosedDay = "last_closed_day"
        case stageNameBefore = "stage_name_before"
        case stageIndexBefore = "stage_index_before"
        case stageXPBefore = "stage_xp_before"
        case stageNameAfter = "stage_name_after"
        case stageIndexAfter = "stage_index_after"
        case stageXPAfter = "stage_xp_after"
    }

    /// The summary as an `a{sv}`.
    public var dbus: DBusValue { fields.value }

    /// Writes the summary's `a{sv}` straight into a message body.
    public func encode(into body: inout BodyWriter) { fields.write(into: &body) }

    private var fields: VardictWriter {
        var w = VardictWriter()
        w.add(Key.restored, restored)
        w.add(Key.name, name)
        w.add(Key.keptIn, keptIn)
        w.add(Key.daysSetAside, int: daysSetAside)
        w.add(Key.firstDaySetAside, firstDaySetAside)
        w.add(Key.lastDaySetAside, lastDaySetAside)
        w.add(Key.openDay, openDay)
        w.add(Key.lastClosedDay, lastClosedDay)
        w.add(Key.stageNameBefore, stageNameBefore)
        w.add(Key.stageIndexBefore, int: stageIndexBefore)
        w.add(Key.stageXPBefore, int: stageXPBefore)
        w.add(Key.stageNameAfter, stageNameAfter)
        w.add(Key.stageIndexAfter, int: stageIndexAfter)
        w.add(Key.stageXPAfter, int: stageXPAfter)
        return w
    }

    /// Decodes a summary.
    public init(dbus value: DBusValue) throws(BusDecodingError) {
        let r = try VardictReader(value, "The restore summary")
        self.init(
            restored: try r.bool(Key.restored), name: try r.string(Key.name), keptIn: try r.string(Key.keptIn),
            daysSetAside: try r.int(Key.daysSetAside), firstDaySetAside: try r.string(Key.firstDaySetAside),
            lastDaySetAside: try r.string(Key.lastDaySetAside), openDay: try r.string(Key.openDay),
            lastClosedDay: try r.string(Key.lastClosedDay), stageNameBefore: try r.string(Key.stageNameBefore),
            stageIndexBefore: try r.int(Key.stageIndexBefore), stageXPBefore: try r.int(Key.stageXPBefore),
            stageNameAfter: try r.string(Key.stageNameAfter), stageIndexAfter: try r.int(Key.stageIndexAfter),
            stageXPAfter: try r.int(Key.stageXPAfter))
    }
}

extension RestoreSummary: BusRecord {}
