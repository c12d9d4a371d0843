/// Adding, editing and deleting tasks and templates (petprogress(7) §3, §6.1 `AddTaskFor`, `UpdateTask`,
/// `DeleteTask`). Every function validates fully before it changes anything.
extension PetWorld {
    /// Adds a one-off task, or — with a repeat rule — a template (and today's instance when it is
    /// for today and today matches). Returns the task or template id.
    @discardableResult
    public mutating func addTask(
        title rawTitle: String, time rawTime: String, day rawDay: String = "",
        repeat rawRepeat: String = "", _ ctx: Context
    ) throws(PetError) -> String {
        let title = try TaskTitle.validate(rawTitle)
        let time = try WallTime.parse(rawTime)
        let choice = try Self.addableDay(rawDay)
        let rule = try Repeat.parse(rawRepeat)
        let day = choice == .today ? openDay : nextDay(zone: ctx.zone)
        // Today's task (or instance) means the occurrence closest to now; tomorrow's, the first.
        let at = try Self.place(time, in: day, zone: ctx.zone, closestTo: choice == .today ? ctx.now : nil)

        guard let rule else {
            try checkRoom(choice == .today ? tasks.count : tomorrow.count, day: day)
            let n = takeSerial()
            let task = TaskItem(
                id: "\(day.key.digits)-\(n)", title: title, time: time, dayKey: day.key, scheduled: at, order: n,
                number: takeNumber(tomorrow: choice == .tomorrow))
            if choice == .today { tasks.append(task) } else { tomorrow.append(task) }
            touch(day.key)
            _ = recordMutation()
            return task.id
        }
        guard templates.count < Self.maxTemplates else {
            throw PetError(
                .invalidArgument, "There are already \(Self.maxTemplates) recurring tasks, the limit; delete one first."
            )
        }
        let wantsInstance = choice == .today && rule.matches(day.key.weekday)
        if wantsInstance { try checkRoom(tasks.count, day: day) }
        let n = takeSerial()
        let template = Template(id: "t-\(n)", title: title, time: time, repeatRule: rule, firstDay: day.key, order: n)
        templates.append(template)
        if wantsInstance { tasks.append(instance(of: template, in: day, at: at, number: takeNumber())) }
        // The day its first instance lands on: today's now, tomorrow's when that day opens.
        if rule.matches(day.key.weekday) { touch(day.key) }
        _ = recordMutation()
        return template.id
    }

    /// Edits a task's or a template's title and/or time; an empty string leaves that field as is.
    /// A time change clears the snooze; a done task may change its title only.
    public mutating func updateTask(id: String, title rawTitle: String, time rawTime: String, _ ctx: Context)
        throws(PetError)
    {
        let slot = try locate(id)
        let title = rawTitle.isEmpty ? nil : try TaskTitle.validate(rawTitle)
        let time = rawTime.isEmpty ? nil : try WallTime.parse(rawTime)
        switch slot {
        case .template(let i):
            let copy = untouchedInstance(of: templates[i])
            if let title { templates[i].title = title }
            if let time { templates[i].time = time }
            // The open day's copy follows when it is still the template's own (petprogress(7) §3);
            // a time the open day does not hold leaves it as it is. This touches no day (§3.1).
            if let copy,
                let edited = try? edited(
                    tasks[copy], title: title, time: time, in: openDay, zone: ctx.zone, closestTo: ctx.now)
            {
                tasks[copy] = edited
            }
        case .today(let i):
            tasks[i] = try edited(tasks[i], title: title, time: time, in: openDay, zone: ctx.zone, closestTo: ctx.now)
            touch(openDay.key)
        case .tomorrow(let i):
            tomorrow[i] = try edited(
                tomorrow[i], title: title, time: time, in: nextDay(zone: ctx.zone), zone: ctx.zone, closestTo: nil)
            touch(tomorrow[i].dayKey)
        }
        _ = recordMutation()
    }

    /// Deletes a task of the open or next day (not a done one), or a template (stopping its
    /// future instances; instances already made stay).
    public mutating func deleteTask(id: String) throws(PetError) {
        switch try locate(id) {
        case .template(let i): templates.remove(at: i)
        case .tomorrow(let i): touch(tomorrow.remove(at: i).dayKey)
        case .today(let i):
            guard !tasks[i].isDone else {
                throw PetError(
                    .alreadyDone, "Task \(quoted(id)) is done and stays on record; undo it first to delete it.")
            }
            tasks.remove(at: i)
            touch(openDay.key)
        }
        _ = recordMutation()
    }

    private func edited(
        _ task: TaskItem, title: String?, time: WallTime?, in day: Day, zone: Zone, closestTo moment: Instant?
    ) throws(PetError) -> TaskItem {
        var t = task
        if let time, time != t.time {
            let at = try Self.place(time, in: day, zone: zone, closestTo: moment)
            guard !t.isDone else {
                throw PetError(.alreadyDone, "Task \(quoted(t.id)) is done; undo it first to change its time.")
            }
            t.time = time
            t.scheduled = at
            t.snoozedUntil = nil
        }
        if let title { t.title = title }
        return t
    }

    /// `AddTaskFor`'s day: `""`/`"today"` or `"tomorrow"` (a task is added for the open or next day only).
    private static func addableDay(_ text: String) throws(PetError) -> DayName {
        guard let name = DayName(text, emptyIsToday: true), name == .today || name == .tomorrow else {
            throw PetError(.invalidArgument, "The day must be \"today\" or \"tomorrow\", not \(quoted(text)).")
        }
        return name
    }

    private func checkRoom(_ count: Int, day: Day) throws(PetError) {
        guard count < Self.maxTasksPerDay else {
            throw PetError(.invalidArgument, "The day \(day.key) already has \(Self.maxTasksPerDay) tasks, the limit.")
        }
    }

    /// A new task of `day` made from a template.
    mutating func instance(of template: Template, in day: Day, at: Instant, number: Int) -> TaskItem {
        let n = takeSerial()
        return TaskItem(
            id: "\(day.key.digits)-\(n)", title: template.title, time: template.time, dayKey: day.key,
            scheduled: at, order: n, templateID: template.id, repeatRule: template.repeatRule, number: number)
    }

    /// The open day's instance of `template` when it is not done and not edited on its own: it
    /// still has the template's title and time (an edit that changed nothing is no edit).
    private func untouchedInstance(of template: Template) -> Int? {
        tasks.firstIndex {
            $0.templateID == template.id && !$0.isDone && $0.title == template.title && $0.time == template.time
        }
    }
}
