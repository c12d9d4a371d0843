/// One task as the oracle expects the daemon to hold it.
struct ModelTask: Equatable {
    var id: String
    var title: String
    var time: String
    var done = false
    var xp = 0
    var snoozedUntil: Int64 = 0

    /// petprogress(7) §3: the snoozed-until instant if set, else the scheduled instant.
    func effective(_ frame: DayFrame) -> Int64 { snoozedUntil != 0 ? snoozedUntil : frame.instant(time) }
}

/// One client's own tasks, in creation order: the oracle's state.
struct Model: Equatable {
    var tasks: [ModelTask] = []

    subscript(id: String) -> ModelTask? { tasks.first { $0.id == id } }

    /// A copy with the task `id` changed by `change`.
    func updating(_ id: String, _ change: (inout ModelTask) -> Void) -> Model {
        var copy = self
        if let index = copy.tasks.firstIndex(where: { $0.id == id }) { change(&copy.tasks[index]) }
        return copy
    }

    /// A copy without the task `id`.
    func removing(_ id: String) -> Model {
        var copy = self
        copy.tasks.removeAll { $0.id == id }
        return copy
    }
}
