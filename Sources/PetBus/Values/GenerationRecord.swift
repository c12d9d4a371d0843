import DBusKit
import PetCore

/// One snapshot that can be restored, as `ListGenerations` returns it (petprogress(7) §6.1).
public struct GenerationRecord: Hashable, Sendable {
    /// The name `Restore` takes.
    public var name: String
    /// `closeout`, `before-catch-up` or `import-backup`.
    public var kind: String
    /// Its last closed day's key ("" when none) and its open day's key.
    public var lastClosedDay: String
    public var openDay: String
    /// When it was written (Unix seconds).
    public var writtenAt: Int64
    /// Its pet (at its open day's opening, with that day's completions), by the table in force.
    public var stageName: String
    public var stageIndex: Int
    public var stageXP: Int

    public init(
        name: String, kind: String, lastClosedDay: String, openDay: String, writtenAt: Int64, stageName: String,
        stageIndex: Int, stageXP: Int
    ) {
        self.name = name
        self.kind = kind
        self.lastClosedDay = lastClosedDay
        self.openDay = openDay
        self.writtenAt = writtenAt
        self.stageName = stageName
        self.stageIndex = stageIndex
        self.stageXP = stageXP
    }

    enum Key: String {
        case name, kind
        case lastClosedDay = "last_closed_day"
        case openDay = "open_day"
        case writtenAt = "written_at"
        case stageName = "stage_name"
        case stageIndex = "stage_index"
        case stageXP = "stage_xp"
    }

    /// The record as an `a{sv}`.
    public var dbus: DBusValue { fields.value }

    /// Writes the record's `a{sv}` straight into a message body.
    public func encode(into body: inout BodyWriter) { fields.write(into: &body) }

    private var fields: VardictWriter {
        var w = VardictWriter()
        w.add(Key.name, name)
        w.add(Key.kind, kind)
        w.add(Key.lastClosedDay, lastClosedDay)
        w.add(Key.openDay, openDay)
        w.add(Key.writtenAt, int64: writtenAt)
        w.add(Key.stageName, stageName)
        w.add(Key.stageIndex, int: stageIndex)
        w.add(Key.stageXP, int: stageXP)
        return w
    }

    /// Decodes a record.
    public init(dbus value: DBusValue) throws(BusDecodingError) {
        let r = try VardictReader(value, "The generation")
        self.init(
            name: try r.string(Key.name), kind: try r.string(Key.kind), lastClosedDay: try r.string(Key.lastClosedDay),
            openDay: try r.string(Key.openDay), writtenAt: try r.int64(Key.writtenAt),
            stageName: try r.string(Key.stageName), stageIndex: try r.int(Key.stageIndex),
            stageXP: try r.int(Key.stageXP))
    }
}

extension GenerationRecord: BusRecord {}
