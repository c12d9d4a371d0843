import DBusKit
import PetBus
import PetCore

/// The interface's members (petprogress(7) §6.1) as plain functions on the service.
extension PetService {
    func widgetEntry() -> WidgetEntry { world.widgetEntry(context, iconPath: iconPath) }

    func timeline() -> [WidgetEntry] { world.timeline(context, iconPath: iconPath) }

    func pet() -> PetView { world.petView(context, iconPath: iconPath) }

    func markNextDone() throws(PetError) -> (String, Int) {
        try mutate { w, ctx throws(PetError) in try w.markNextDone(ctx) }
    }

    func snoozeNext() throws(PetError) -> (String, Instant) {
        try mutate { w, ctx throws(PetError) in try w.snoozeNext(ctx) }
    }

    func markDone(_ id: String) throws(PetError) -> Int {
        try mutate { w, ctx throws(PetError) in try w.markDone(id: id, ctx) }
    }

    func undo(_ id: String) throws(PetError) { try mutate { w, _ throws(PetError) in try w.undo(id: id) } }

    func snooze(_ id: String) throws(PetError) -> Instant {
        try mutate { w, ctx throws(PetError) in try w.snooze(id: id, ctx) }
    }

    func addTask(title: String, time: String, day: String, repeat rule: String) throws(PetError) -> String {
        try mutate { w, ctx throws(PetError) in try w.addTask(title: title, time: time, day: day, repeat: rule, ctx) }
    }

    func updateTask(id: String, title: String, time: String) throws(PetError) {
        try mutate { w, ctx throws(PetError) in try w.updateTask(id: id, title: title, time: time, ctx) }
    }

    func deleteTask(_ id: String) throws(PetError) { try mutate { w, _ throws(PetError) in try w.deleteTask(id: id) } }

    /// `""` the open day, `"tomorrow"` the tasks added for the next day, else a `YYYY-MM-DD` key:
    /// the open or next day's tasks, or a closed day's from history; any other day is empty.
    func listTasks(_ day: String) throws(PetError) -> [TaskRecord] {
        guard let name = DayName(day, emptyIsToday: true) else {
            throw PetError(.invalidArgument, "The day must be \"\", \"tomorrow\" or a date YYYY-MM-DD.")
        }
        let key = world.key(of: name, zone: zone)
        if key == world.openDay.key { return world.openDayRecords(context) }
        if key == world.nextDay(zone: zone).key { return world.tomorrowRecords(context) }
        guard let last = world.lastClosedDay, key <= last else { return [] }
        do {
            guard let record = try environment.historyDay(key) else { return [] }
            return TaskRecord.list(record.tasks, reading: .closed, zone: zone)
        } catch {
            throw PetError(.storageFailure, "History for \(key) could not be read (\(error.message)).")
        }
    }

    // Rest days and history (petprogress(7) §3.1.1, §6.1).

    func setRest(from: String, to: String, rest: Bool) throws(PetError) {
        try mutate { w, ctx throws(PetError) in try w.setRest(from: from, to: to, rest: rest, ctx) }
    }

    func restDays() -> [String] { world.markedRestDays.map(\.description) }

    /// The archived days in `[from, to]`, at most 31, the latest when more match. Only days up to
    /// the state's last closed day count: the state file is authoritative over history (petprogress(7) §5).
    func history(from: String, to: String) throws(PetError) -> (records: [HistoryRecord], more: Bool) {
        let asked = try HistoryRange.parse(from: from, to: to)
        guard let last = world.lastClosedDay, asked.from.map({ $0 <= last }) ?? true else { return ([], false) }
        let range = HistoryRange(from: asked.from, to: min(asked.to ?? last, last))
        do {
            var (records, more) = try environment.history(range)
            // By size as well as by days (petprogress(7) §6): the latest that fit the page's bytes.
            var bytes = 0
            for (i, record) in records.enumerated().reversed() {
                bytes += Self.busBytes(record)
                if bytes > pageBytes, i < records.count - 1 {
                    records.removeFirst(i + 1)
                    more = true
                    break
                }
            }
            return (records.map { HistoryRecord($0, stages: stages, zone: zone) }, more)
        } catch {
            throw PetError(.storageFailure, "History could not be read (\(error.message)).")
        }
    }

    /// A generous count of the bytes a history record takes in a reply: its fixed keys, and each
    /// task's keys and strings (a task record is about 500 bytes of keys and values besides them).
    static func busBytes(_ record: DayRecord) -> Int {
        record.tasks.reduce(1024) { sum, task in
            sum + 768 + task.title.utf8.count + 2 * task.id.utf8.count + (task.templateID?.utf8.count ?? 0)
        }
    }

    func templates() -> [TemplateRecord] {
        world.templates.sorted { $0.order < $1.order }.map(TemplateRecord.init)
    }

    func status() -> ServiceStatus {
        var status = ServiceStatus(
            version: Self.version, dataDirectory: environment.dataDirectory,
            lastClosedDay: world.lastClosedDay?.description ?? "", openDay: world.openDay.key.description,
            mutations: world.mutations, problems: problems, now: now, replyCacheHits: replies.hits)
        status.openDayEnd = world.openDay.end
        status.nextDay = world.nextDay(zone: zone).key.description
        status.timeScale = environment.timeScale
        status.describeZone(zone, around: now)
        if let recovery {
            status.recovery = recovery.sentence
            status.recoverySource = recovery.source.rawValue
            status.recoveryDay = recovery.day?.description ?? ""
            status.recoveryLost = recovery.lost
            status.recoveryAt = recovery.at
            status.problemsAcknowledged = recovery.acknowledged
        }
        addClockBehind(to: &status)
        return status
    }

    /// `AcknowledgeProblems` (petprogress(7) §6.1): the recovery notice is seen, durably, so clients
    /// stop showing it, after a restart too. The problems stay listed.
    func acknowledgeProblems() throws(PetError) {
        // The clock that went back: the days stay closed as they are (until the open day changes).
        if now < world.openDay.start - Self.clockBehindSlack { clockBehindAcknowledged = world.openDay.key }
        do {
            recovery = try environment.acknowledgeRecovery() ?? recovery
        } catch {
            log("could not record the acknowledgement: \(error)")
            throw PetError(.storageFailure, "The acknowledgement could not be saved (\(error.message)).")
        }
    }

    // Settings (petprogress(7) §4).

    func setResetTime(_ value: DBusValue) throws(PetError) {
        guard case .string(let text) = value else { throw wrongType(.resetTime, "a string HH:MM") }
        try mutate { w, _ throws(PetError) in try w.setResetTime(text) }
    }

    func setGraceMinutes(_ value: DBusValue) throws(PetError) {
        let minutes = try minutesValue(value, .graceMinutes)
        try mutate { w, _ throws(PetError) in try w.setGraceMinutes(minutes) }
    }

    func setSnoozeMinutes(_ value: DBusValue) throws(PetError) {
        let minutes = try minutesValue(value, .snoozeMinutes)
        try mutate { w, _ throws(PetError) in try w.setSnoozeMinutes(minutes) }
    }

    func setRollover(_ value: DBusValue) throws(PetError) {
        guard case .bool(let on) = value else { throw wrongType(.rollover, "a boolean") }
        try mutate { w, _ throws(PetError) in w.setRollover(on) }
    }

    /// A `u`, or an `i` holding a non-negative value (gdbus sends plain numbers as `i`).
    private func minutesValue(_ value: DBusValue, _ property: PetBus.Property) throws(PetError) -> Int {
        let name = property.rawValue
        switch value {
        case .uint32(let v): return Int(v)
        case .int32(let v) where v >= 0: return Int(v)
        case .int32(let v): throw PetError(.invalidArgument, "\(name) cannot be negative (\(v)).")
        default: throw wrongType(property, "a uint32 (or a non-negative int32)")
        }
    }

    private func wrongType(_ property: PetBus.Property, _ expected: String) -> PetError {
        PetError(.invalidArgument, "\(property.rawValue) takes \(expected).")
    }
}
