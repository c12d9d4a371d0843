import DBusKit
import PetCore

/// `GetStatus`'s reply (petprogress(7) §6.1).
extension ServiceStatus {
    enum Key: String {
        case version
        case dataDirectory = "data_dir"
        case lastClosedDay = "last_closed_day"
        case openDay = "open_day"
        case openDayEnd = "open_day_end"
        case mutations, problems, now
        case replyCacheHits = "reply_cache_hits"
        case recovery
        case recoverySource = "recovery_source"
        case recoveryDay = "recovery_day"
        case recoveryLost = "recovery_lost"
        case recoveryAt = "recovery_at"
        case problemsAcknowledged = "problems_acknowledged"
        case nextDay = "next_day"
        case timeScale = "time_scale"
        case utcOffset = "utc_offset"
        case utcOffsetChange = "utc_offset_change"
        case utcOffsetAfter = "utc_offset_after"
        case clockBehind = "clock_behind"
        case clockDay = "clock_day"
        case clockBehindSnapshot = "clock_behind_snapshot"
    }

    /// The status as an `a{sv}`.
    public var dbus: DBusValue { fields.value }

    /// Writes the status's `a{sv}` straight into a message body (the daemon's reply).
    public func encode(into body: inout BodyWriter) { fields.write(into: &body) }

    /// The status's fields, the one encoding of it.
    private var fields: VardictWriter {
        var w = VardictWriter()
        w.add(Key.version, version)
        w.add(Key.dataDirectory, dataDirectory)
        w.add(Key.lastClosedDay, lastClosedDay)
        w.add(Key.openDay, openDay)
        w.add(Key.mutations, uint64: mutations)
        w.add(Key.problems, strings: problems)
        w.add(Key.now, int64: now)
        w.add(Key.openDayEnd, int64: openDayEnd)
        w.add(Key.replyCacheHits, uint64: replyCacheHits)
        w.add(Key.recovery, recovery)
        w.add(Key.recoverySource, recoverySource)
        w.add(Key.recoveryDay, recoveryDay)
        w.add(Key.recoveryLost, recoveryLost)
        w.add(Key.recoveryAt, int64: recoveryAt)
        w.add(Key.problemsAcknowledged, problemsAcknowledged)
        w.add(Key.nextDay, nextDay)
        w.add(Key.timeScale, double: timeScale)
        if let utcOffset {
            w.add(Key.utcOffset, int: utcOffset)
            w.add(Key.utcOffsetChange, int64: utcOffsetChange)
            w.add(Key.utcOffsetAfter, int: utcOffsetAfter)
        }
        w.add(Key.clockBehind, clockBehind)
        w.add(Key.clockDay, clockDay)
        w.add(Key.clockBehindSnapshot, clockBehindSnapshot)
        return w
    }

    /// Decodes a status.
    public init(dbus value: DBusValue) throws(BusDecodingError) {
        let r = try VardictReader(value, "The status")
        self.init(
            version: try r.string(Key.version), dataDirectory: try r.string(Key.dataDirectory),
            lastClosedDay: try r.string(Key.lastClosedDay), openDay: try r.string(Key.openDay),
            mutations: try r.uint64(Key.mutations), problems: try r.strings(Key.problems),
            now: try r.int64(Key.now, addedLater: 0), replyCacheHits: try r.uint64(Key.replyCacheHits, addedLater: 0))
        openDayEnd = try r.int64(Key.openDayEnd, addedLater: 0)
        recovery = try r.string(Key.recovery, addedLater: "")
        recoverySource = try r.string(Key.recoverySource, addedLater: "")
        recoveryDay = try r.string(Key.recoveryDay, addedLater: "")
        recoveryLost = try r.string(Key.recoveryLost, addedLater: "")
        recoveryAt = try r.int64(Key.recoveryAt, addedLater: 0)
        problemsAcknowledged = try r.bool(Key.problemsAcknowledged, absent: false)
        nextDay = try r.string(Key.nextDay, addedLater: "")
        timeScale = try r.double(Key.timeScale, addedLater: 1)
        if r.values[Key.utcOffset.rawValue] != nil {
            utcOffset = try r.int(Key.utcOffset)
            utcOffsetChange = try r.int64(Key.utcOffsetChange, addedLater: 0)
            utcOffsetAfter = try r.int(Key.utcOffsetAfter, addedLater: utcOffset ?? 0)
        }
        clockBehind = try r.bool(Key.clockBehind, absent: false)
        clockDay = try r.string(Key.clockDay, addedLater: "")
        clockBehindSnapshot = try r.string(Key.clockBehindSnapshot, addedLater: "")
    }
}

extension ServiceStatus: BusRecord {}
