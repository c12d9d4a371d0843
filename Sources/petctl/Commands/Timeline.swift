import ArgumentParser
import PetBus
import PetCore

/// `petctl timeline`: what the panel would show at each of the next 24 ticks.
struct Timeline: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "timeline",
        abstract: tr("Show what the panel will show at each of the next 24 tops of the hour."),
        discussion: tr("The pet is the pet as it is now (no day is judged in advance).\nExample: petctl timeline"))

    func run() throws {
        let session = Session()
        let entries = try session.run { client in try client.timeline() }
        let width = Terminal.current(.never).width
        let clock = ClockStyle()
        Output.lines(entries.map { Self.row($0, width: width, clock: clock) })
    }

    static func row(_ e: WidgetEntry, width: Int, clock: ClockStyle) -> String {
        // Narrow terminals keep the glyph and drop the stage's name, to leave room for the task.
        let name = width < 60 ? "" : TextWidth.pad(trc("pet form", dynamic: e.pet.stageName), to: 12) + " "
        let xp = e.pet.isFinal ? tr("%d XP", e.pet.stageXP) : "\(e.pet.stageXP)/\(e.pet.threshold)"
        let pet = TextWidth.pad("\(e.pet.glyph) \(name)\(xp)", to: width < 60 ? 10 : 24)
        let counts = TextWidth.padLeft("\(e.tasksDone)/\(e.tasksTotal)", to: 5)
        // The hour right-aligned to the locale's widest time: columns that do not shift (` 9:00 AM`).
        let prefix = "\(TextWidth.padLeft(clock.time(e.date), to: clock.columnWidth))  \(pet)  \(counts)  "
        guard !e.nextTaskID.isEmpty else {
            return prefix + (e.tasksTotal == 0 ? tr("no tasks") : tr("nothing pending"))
        }
        let next = "\(clock.wall(e.nextTaskTime)) "
        let room = max(1, width - TextWidth.columns(prefix + next))
        return prefix + next + Titles.forLine(e.nextTaskTitle, width: room)
    }
}
