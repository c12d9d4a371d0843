import ArgumentParser
import PetBus
import PetCore

/// How a person names a task (petprogress(7) §3, §7): today's number as `petctl today` shows it
/// (`3`), tomorrow's as `petctl tomorrow` shows it (`+2`), a repeating task's template (`r4`; the
/// daemon's id `t-4` is still taken), or the full id (`20260302-14`), which scripts may keep using.
/// A template is shown as `rN`, never `t-N`: `t-12` read as "task 12" when its copy was task 11
/// (docs/DECISIONS.md, "Repeating tasks are `rN`").
enum Handle: Equatable, ExpressibleByArgument {
    case today(Int)
    case tomorrow(Int)
    case template(String)
    case id(String)

    init?(argument: String) {
        func number(_ s: Substring) -> Int? {
            guard !s.isEmpty, s.count <= 9, s.allSatisfy({ $0.isASCII && $0.isNumber }), let n = Int(s), n > 0 else {
                return nil
            }
            return n
        }
        if let n = number(argument[...]) {
            self = .today(n)
        } else if argument.hasPrefix("+"), let n = number(argument.dropFirst()) {
            self = .tomorrow(n)
        } else if argument.hasPrefix("r") || argument.hasPrefix("R"), let n = number(argument.dropFirst()) {
            self = .template("t-\(n)")
        } else if argument.hasPrefix("t-"), let n = number(argument.dropFirst(2)) {
            self = .template("t-\(n)")
        } else if Bounds.taskID(argument) != nil {
            self = .id(argument)
        } else {
            return nil
        }
    }

    /// What the user typed, as petctl shows it back (a template as `rN`, however it was typed).
    var typed: String {
        switch self {
        case .today(let n): "\(n)"
        case .tomorrow(let n): "+\(n)"
        case .template(let id): Self.template(id)
        case .id(let id): id
        }
    }

    /// A template's daemon id (`t-4`) as petctl shows it (`r4`); any other id as it is.
    static func template(_ id: String) -> String {
        guard id.hasPrefix("t-"), id.count > 2, id.dropFirst(2).allSatisfy({ $0.isASCII && $0.isNumber }) else {
            return id
        }
        return "r" + id.dropFirst(2)
    }

    static var help: String {
        tr("a task's number from petctl today (e.g. 3), tomorrow's from petctl tomorrow (+2), or a repeating task's rN from petctl templates (r2)")
    }
    /// For `done`, `snooze` and `undo`, which act on today's tasks only.
    static var todayHelp: String { tr("a task's number from petctl today (e.g. 3)") }

    /// The shown name of a task record: its number on its day (`+N` for the next day's), or its
    /// id when the daemon gives no number.
    static func shown(_ task: TaskRecord, tomorrow: Bool = false) -> String {
        guard task.number > 0 else { return TodayScreen.handle(task.id) }
        return tomorrow ? "+\(task.number)" : "\(task.number)"
    }

    /// A task a handle named, and how petctl shows it (`3`, or `+2` for tomorrow's).
    struct Named {
        let record: TaskRecord
        let shown: String
    }

    /// The task this handle names among today's and tomorrow's (nil for a template, and for an id
    /// of neither: the daemon judges it), refusing a number no task has.
    func task(_ client: PetClient) throws -> Named? {
        switch self {
        case .template: return nil
        case .today(let n):
            guard let task = try client.listTasks(day: "").first(where: { $0.number == n }) else {
                throw Session.refuse(tr("there is no task %d today; petctl today lists them", n))
            }
            return Named(record: task, shown: Self.shown(task))
        case .tomorrow(let n):
            guard let task = try client.listTasks(day: "tomorrow").first(where: { $0.number == n }) else {
                throw Session.refuse(tr("there is no task +%d tomorrow; petctl tomorrow lists them", n))
            }
            return Named(record: task, shown: Self.shown(task, tomorrow: true))
        case .id(let id):
            if let task = try client.listTasks(day: "").first(where: { $0.id == id }) {
                return Named(record: task, shown: Self.shown(task))
            }
            return try client.listTasks(day: "tomorrow").first { $0.id == id }.map {
                Named(record: $0, shown: Self.shown($0, tomorrow: true))
            }
        }
    }

    /// Calls `body` with the id of `task` (else the handle's own id); a rejection quotes the
    /// handle as the user typed it, not the id.
    func call<T>(_ task: Named?, _ body: (String) throws -> T) throws -> T {
        let id: String
        switch self {
        case .template(let t), .id(let t): id = task?.record.id ?? t
        case .today, .tomorrow: id = task?.record.id ?? ""
        }
        do {
            return try body(id)
        } catch PetClientError.rejected(let rejection) where id != typed {
            throw Session.fail(
                .rejected(PetError(rejection.kind, rejection.message.replacing(quoted(id), with: typed))))
        }
    }

    /// Runs an action on the task `handle` names, or on the next task when there is none (`done`,
    /// `snooze`); returns the task's shown name, the action's answer, its title and its record as
    /// read before the action. The next task comes from the (small) entry `next` reads before its
    /// action (with it, in one round trip where it can), the named one from the day's list.
    static func act<T>(
        on handle: Handle?, verb: String, in session: Session, named: (PetClient, String) throws -> T,
        next: (PetClient) throws -> (before: WidgetEntry, id: String, answer: T)
    ) throws -> (shown: String, answer: T, title: String, before: TaskRecord?) {
        try session.run { client in
            guard let handle else {
                let (before, id, answer) = try next(client)
                if let task = before.upcoming.first, task.id == id { return (shown(task), answer, task.title, task) }
                let task = try client.listTasks(day: "").first { $0.id == id }
                return (task.map { shown($0) } ?? TodayScreen.handle(id), answer, task?.title ?? "", task)
            }
            let task = try handle.todays(client, verb: verb)
            let answer = try handle.call(task) { try named(client, $0) }
            return (task?.shown ?? handle.typed, answer, task?.record.title ?? "", task?.record)
        }
    }

    /// The task of today this handle names, for `done`, `snooze` and `undo`: a template or
    /// tomorrow's task is refused with what to type instead (nil: an id the daemon judges).
    func todays(_ client: PetClient, verb: String) throws -> Named? {
        switch self {
        case .template(let id):
            guard let copy = try client.listTasks(day: "").first(where: { $0.templateID == id }) else {
                throw Session.refuse(
                    tr("%s is a repeating task, not one of today's tasks, and today has no copy of it", typed))
            }
            let shown = Handle.shown(copy)
            throw Session.refuse(
                tr(
                    "%1$s is a repeating task, not one of today's tasks; today's copy is %2$s: petctl %3$s %2$s", typed,
                    shown, verb))
        case .today, .tomorrow, .id:
            let task = try task(client)
            if let task, task.shown.hasPrefix("+") {
                throw Session.refuse(
                    verb == "done"
                        ? tr("%s is tomorrow's task; only today's tasks can be marked done", typed)
                        : verb == "snooze"
                            ? tr("%s is tomorrow's task; only today's tasks can be snoozed", typed)
                            : tr("%s is tomorrow's task; only today's tasks can be undone", typed))
            }
            return task
        }
    }
}
