import PetBus
import PetCore

/// The inline prompt of `a` (add) and `e` (edit) on the interactive screen: the time first, with
/// the forgiving input of `petctl add` judged as it is typed, then the title.
struct Prompt {
    enum Field { case time, title }

    /// The task `e` edits; nil for `a`.
    let editing: TaskRecord?
    /// Where `a` adds: "today" or "tomorrow".
    let day: String
    var field = Field.time
    var time: String
    var title: String

    static func add(day: String) -> Prompt { Prompt(editing: nil, day: day, time: "", title: "") }

    /// Edits `task` of `day` ("today", or "tomorrow" for a task of tomorrow's list).
    static func edit(_ task: TaskRecord, day: String = "today") -> Prompt {
        Prompt(editing: task, day: day, time: task.time, title: task.title)
    }

    /// How the task being edited is named (`3`, or `+1` for tomorrow's).
    var shown: String { editing.map { Handle.shown($0, tomorrow: day == "tomorrow") } ?? "" }

    /// The time typed so far, judged: the input, or the sentence that says what to type.
    var verdict: Result<TimeInput, TimeInputError> {
        do throws(TimeInputError) {
            let input = try TimeInput.parse(time)
            if day == "tomorrow", case .later = input {
                throw TimeInputError(tr("%s counts from now; for tomorrow give a clock time such as 9:30", time))
            }
            return .success(input)
        } catch {
            return .failure(error)
        }
    }

    /// The status line: what is being typed, and what the time means or why it is refused.
    var line: (text: String, problem: Bool) {
        let (said, keys, problem) = parts
        return (said + " " + keys, problem)
    }

    /// The status line in two: the sentence (what is typed, and what it means) and the keys
    /// (`(Enter: next, Esc: cancel)`), which the screen keeps whole where the line must be cut.
    /// A refused time is said without petctl add's list of examples: the prompt showed them
    /// before anything was typed.
    var parts: (said: String, keys: String, problem: Bool) {
        let verb =
            editing.map { _ in tr("Edit %s", shown) } ?? (day == "tomorrow" ? tr("Add for tomorrow") : tr("Add"))
        switch field {
        case .time:
            let said: String
            var problem = false
            switch verdict {
            case .success(.clock(let wall)): said = tr("at %s", wall)
            case .success(.later(let minutes)): said = tr("%d min from now", minutes)
            case .failure(let error):
                said =
                    time.isEmpty
                    ? tr("e.g. 14:30, 7pm, +20m") : error.message.replacing(" (\(TimeInput.examples))", with: "")
                problem = !time.isEmpty
            }
            return (tr("%s · time: %s▏ %s", verb, time, said), tr("(Enter: next, Esc: cancel)"), problem)
        case .title:
            return (tr("%s · %s title: %s▏", verb, time, title), tr("(Enter: save, Esc: cancel)"), false)
        }
    }

    /// Applies a key; `true` when the prompt is to be submitted.
    mutating func type(_ key: Key) -> Bool {
        switch (key, field) {
        case (.backspace, .time): if !time.isEmpty { time.removeLast() }
        case (.backspace, .title): if !title.isEmpty { title.removeLast() }
        case (.character(let c), .time): if time.count < 12 { time.append(c) }
        case (.character(let c), .title): if title.count < 200 { title.append(c) }
        case (.enter, .time): if case .success = verdict { field = .title }
        case (.enter, .title): return true
        default: break
        }
        return false
    }
}
