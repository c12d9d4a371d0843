import ArgumentParser
import PetBus
import PetCore

/// `petctl add HH:MM TITLE [--repeat …] [--tomorrow]`.
struct Add: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "add",
        abstract: "Add a task for today (or tomorrow), once or repeating.",
        discussion: """
            Examples:
              petctl add 14:30 "Write report"
              petctl add 07:00 Stretch --repeat weekdays
              petctl add 09:30 Dentist --tomorrow
            """)

    @Argument(help: "The time, HH:MM (00:00–23:59).")
    var time: String

    @Argument(help: "The title (1–200 characters; quote it if it has spaces).")
    var title: [String]

    @Option(name: .long, help: "Repeat: daily, weekdays, or days such as mon,wed,fri.")
    var `repeat`: String = ""

    @Flag(help: "Add it for tomorrow instead of today.")
    var tomorrow = false

    var joinedTitle: String { title.joined(separator: " ") }

    func validate() throws {
        do throws(PetError) {
            _ = try WallTime.parse(time)
            _ = try TaskTitle.validate(joinedTitle)
            _ = try Repeat.parse(`repeat`)
        } catch {
            throw ValidationError(error.message)
        }
    }

    func run() throws {
        let day = tomorrow ? "tomorrow" : "today"
        let (shown, copy) = try Session.run { client in
            let id = try client.addTask(title: joinedTitle, time: time, day: day, repeat: `repeat`)
            // The number the new task has on its day; a repeating task's template, and today's copy.
            guard `repeat`.isEmpty else {
                return (id, try client.listTasks(day: "").first { $0.templateID == id }.map { Handle.shown($0) })
            }
            let task = try client.listTasks(day: day == "today" ? "" : day).first { $0.id == id }
            return (task.map { Handle.shown($0, tomorrow: tomorrow) } ?? id, nil)
        }
        let what = `repeat`.isEmpty ? "" : ", repeating \(`repeat`)"
        let today = copy.map { " Today's copy is \($0)." } ?? ""
        Output.lines(["Added \(shown): \(time) \(Titles.clean(joinedTitle)) (\(day)\(what)).\(today)"])
    }
}
