import PetCore

/// What the interactive screen shows besides the daemon's data: the selection, the status line
/// and which key is awaited.
struct InteractiveState {
    /// The last screen read; kept while the daemon is away, so nothing on it is lost.
    var screen: TodayScreen?
    /// The selected task, by id, so that a refresh that reorders the day keeps it.
    var selectedID: String?
    var status = ""
    /// Whether the status line reports a refusal or a problem (not a plain confirmation).
    var statusIsProblem = false
    var showsHelp = false
    /// The task `x` asked about: the next key `y` deletes it.
    var confirmingDelete: TaskRecord?
    /// The inline prompt of `a` or `e`, while one is open.
    var prompt: Prompt?
    /// `t`: tomorrow's list in place of today's (read from the daemon on each refresh).
    var tomorrow: TomorrowScreen?
    var showsTomorrow = false
    /// The selected task of tomorrow's list (one added for tomorrow, `+N`), by id.
    var tomorrowSelectedID: String?

    /// The tasks added for tomorrow, which its list can edit and delete, in its order.
    var tomorrowTasks: [TaskRecord] { tomorrow?.added ?? [] }

    var tomorrowSelected: TaskRecord? { tomorrowTasks.first { $0.id == tomorrowSelectedID } }

    var tasks: [TaskRecord] { screen?.tasks ?? [] }

    var selected: TaskRecord? { tasks.first { $0.id == selectedID } }

    /// Keeps the selection on its task when it is still there, else on the next task of the day
    /// (or the first).
    mutating func settle() {
        if selected == nil { selectedID = (tasks.first(where: \.isNext) ?? tasks.first)?.id }
        if tomorrowSelected == nil { tomorrowSelectedID = tomorrowTasks.first?.id }
    }

    /// Moves the selection by `step` tasks of the list shown, stopping at either end.
    mutating func move(_ step: Int) {
        if showsTomorrow {
            let tasks = tomorrowTasks
            guard let index = tasks.firstIndex(where: { $0.id == tomorrowSelectedID }) else {
                tomorrowSelectedID = tasks.first?.id
                return
            }
            tomorrowSelectedID = tasks[max(0, min(tasks.count - 1, index + step))].id
            return
        }
        guard let index = tasks.firstIndex(where: { $0.id == selectedID }) else { return settle() }
        selectedID = tasks[max(0, min(tasks.count - 1, index + step))].id
    }

    mutating func say(_ sentence: String, problem: Bool = false) {
        status = sentence
        statusIsProblem = problem
    }
}
