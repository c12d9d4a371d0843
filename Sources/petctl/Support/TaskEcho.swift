import PetBus
import PetCore

/// What a confirmation says about a task (`Deleted 8: 14:30 Write report`), and the `petctl add`
/// line that would bring a deleted one back.
struct TaskEcho {
    let time: String
    let title: String
    /// `daily`, `weekdays`, `mon,wed`, … for a template; "" for a task.
    let repeatRule: String
    let tomorrow: Bool

    /// The task, template or tomorrow's task with `id`, as the daemon lists it now; nil if none.
    static func find(_ id: String, _ client: PetClient) throws(PetClientError) -> TaskEcho? {
        if id.hasPrefix("t-") {
            return try client.listTemplates().first { $0.id == id }.map {
                TaskEcho(time: $0.time, title: $0.title, repeatRule: $0.repeatRule, tomorrow: false)
            }
        }
        if let task = try client.listTasks(day: "").first(where: { $0.id == id }) {
            return TaskEcho(time: task.time, title: task.title, repeatRule: "", tomorrow: false)
        }
        return try client.listTasks(day: "tomorrow").first { $0.id == id }.map {
            TaskEcho(time: $0.time, title: $0.title, repeatRule: "", tomorrow: true)
        }
    }

    /// `14:30 Write report`, the time on `clock`.
    func line(_ clock: ClockStyle) -> String { "\(clock.wall(time)) \(Titles.quoted(title))" }

    /// `petctl add 14:30 'Write report' --tomorrow`, quoted for a POSIX shell.
    var addCommand: String {
        var words = ["petctl", "add", time, Self.shellQuoted(title)]
        if !repeatRule.isEmpty { words += ["--repeat", repeatRule] }
        if tomorrow { words.append("--tomorrow") }
        return words.joined(separator: " ")
    }

    /// `word` as one POSIX shell word: as it is when it is plain, else in single quotes.
    static func shellQuoted(_ word: String) -> String {
        let plain =
            !word.isEmpty
            && word.unicodeScalars.allSatisfy {
                ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0)
                    || "-_.,:/@%+=".unicodeScalars.contains($0)
            }
        if plain && !word.hasPrefix("-") { return word }
        return "'" + word.replacing("'", with: "'\\''") + "'"
    }
}
