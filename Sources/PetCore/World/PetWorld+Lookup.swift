/// Where an id lives, and the errors for ids that live nowhere editable (petprogress(7) §3).
enum Slot {
    case today(Int)
    case tomorrow(Int)
    case template(Int)
}

extension PetWorld {
    /// Finds an id: a task of the open or next day, or a template. An id of a closed day is
    /// `ReadOnlyDay`; one that never existed (or was deleted) is `NotFound`.
    func locate(_ id: String) throws(PetError) -> Slot {
        if let i = tasks.firstIndex(where: { $0.id == id }) { return .today(i) }
        if let i = tomorrow.firstIndex(where: { $0.id == id }) { return .tomorrow(i) }
        if let i = templates.firstIndex(where: { $0.id == id }) { return .template(i) }
        if isClosedDayTaskID(id) {
            throw PetError(.readOnlyDay, "Task \(quoted(id)) belongs to a closed day, which cannot change.")
        }
        throw PetError(.notFound, "There is no task or template with id \(quoted(id)); list them with ListTasks.")
    }

    /// Finds a task of the open day that can be done, undone or snoozed.
    func locateActionable(_ id: String, verb: String) throws(PetError) -> Int {
        switch try locate(id) {
        case .today(let i): return i
        case .tomorrow:
            throw PetError(.invalidArgument, "Task \(quoted(id)) is tomorrow's; only today's tasks can be \(verb).")
        case .template:
            throw PetError(
                .invalidArgument,
                "\(quoted(id)) is a repeating task's template, not a day's task; only a day's task can be \(verb).")
        }
    }

    /// A `YYYYMMDD-N` id whose day is closed and whose serial was handed out.
    private func isClosedDayTaskID(_ id: String) -> Bool {
        guard let (key, n) = Bounds.taskID(id), n <= serial, let last = lastClosedDay else { return false }
        return key <= last
    }

    /// The strict placement of a time in a day, or `InvalidArgument` when it falls nowhere there:
    /// the occurrence closest to `moment` when the time is chosen while the day is open, else the
    /// first (petprogress(7) §3 "Task times").
    static func place(_ time: WallTime, in day: Day, zone: Zone, closestTo moment: Instant? = nil) throws(PetError)
        -> Instant
    {
        let found =
            if let moment {
                DayCalendar.instant(of: time, in: day, zone: zone, closestTo: moment)
            } else {
                DayCalendar.instant(of: time, in: day, zone: zone)
            }
        guard let at = found else {
            throw PetError(
                .invalidArgument,
                "\(time) does not occur in the day \(day.key), which is shortened by a reset-time change.")
        }
        return at
    }

    /// The lenient placement used when a day opens: a time that falls nowhere in the actual
    /// interval (a reset or zone change since it was planned) goes to the day's last minute.
    static func placeLeniently(_ time: WallTime, in day: Day, zone: Zone) -> Instant {
        DayCalendar.instant(of: time, in: day, zone: zone) ?? day.end - 60
    }
}
