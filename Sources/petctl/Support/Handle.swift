import ArgumentParser
import PetBus
import PetCore

/// How a person names a task: the serial `today` shows (`14`), the full id
/// (`20260302-14`), or a template's `t-N`.
enum Handle: Equatable, ExpressibleByArgument {
    case serial(UInt64)
    case id(String)
    case template(String)

    init?(argument: String) {
        let parts = argument.split(separator: "-", omittingEmptySubsequences: false)
        func number(_ s: Substring) -> UInt64? { s.allSatisfy(\.isASCII) ? UInt64(s) : nil }
        switch parts.count {
        case 1:
            guard let n = number(parts[0]), n > 0 else { return nil }
            self = .serial(n)
        case 2 where parts[0] == "t":
            guard let n = number(parts[1]), n > 0 else { return nil }
            self = .template(argument)
        case 2:
            guard parts[0].count == 8, number(parts[0]) != nil, let n = number(parts[1]), n > 0 else { return nil }
            self = .id(argument)
        default:
            return nil
        }
    }

    static let help = "a task's number from petctl today (e.g. 14), its full id (20260302-14), or a template's t-N"

    /// The id to send: a serial is looked up among the open day's and tomorrow's tasks (serials
    /// are unique across the store, so at most one matches).
    func resolve(_ client: PetClient) throws -> String {
        switch self {
        case .id(let id), .template(let id): return id
        case .serial(let n):
            let suffix = "-\(n)"
            let candidates = try client.listTasks(day: "") + client.listTasks(day: "tomorrow")
            guard let task = candidates.first(where: { $0.id.hasSuffix(suffix) }) else {
                throw Session.refuse("there is no task \(n) today or tomorrow; petctl today lists them")
            }
            return task.id
        }
    }

    /// Runs an action on the task `handle` names, or on the next task when there is none (`done`,
    /// `snooze`); returns the task's id, the action's answer and the task's title. The next task's
    /// title comes from the (small) entry read before the action, the rest from the day's list.
    static func act<T>(
        on handle: Handle?, named: (PetClient, String) throws -> T, next: (PetClient) throws -> (String, T)
    ) throws -> (String, T, String) {
        try Session.run { client in
            guard let handle else {
                let before = try client.widgetEntry()
                let (id, answer) = try next(client)
                let title =
                    id == before.nextTaskID
                    ? before.nextTaskTitle : try client.listTasks(day: "").first { $0.id == id }?.title ?? ""
                return (id, answer, title)
            }
            let id = try handle.resolve(client)
            let answer = try named(client, id)
            return (id, answer, try client.listTasks(day: "").first { $0.id == id }?.title ?? "")
        }
    }
}
