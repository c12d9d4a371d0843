import ArgumentParser
import PetBus

/// `petctl rm ID`.
struct Remove: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rm",
        abstract: tr("Delete a task of today or tomorrow, or a template (stopping its future days)."),
        discussion:
            tr("Deleting a repeating task (rN, as petctl templates lists it) keeps today's copy.\nExamples: petctl rm 3    petctl rm +1    petctl rm r3"))

    @Argument(help: ArgumentHelp(Handle.help), completion: HandleCompletion.any) var task: Handle

    func run() throws {
        let (session, clock) = (Session(), ClockStyle())
        let (said, echo) = try session.run { client in
            guard case .template(let id) = task else {
                let named = try task.task(client)
                let echo = try task.call(named) { id in
                    let echo = try TaskEcho.find(id, client)
                    try client.deleteTask(id)
                    return echo
                }
                let shown = named?.shown ?? task.typed
                return (echo.map { tr("Deleted %s: %s.", shown, $0.line(clock)) } ?? tr("Deleted %s.", shown), echo)
            }
            let copy = try client.listTasks(day: "").first { $0.templateID == id }
            var echo = try TaskEcho.find(id, client)
            try task.call(nil) { try client.deleteTask($0) }
            // Today's copy stays: bringing the template back starts it tomorrow, not with a
            // second copy today.
            if copy != nil, let kept = echo {
                echo = TaskEcho(time: kept.time, title: kept.title, repeatRule: kept.repeatRule, tomorrow: true)
            }
            // The open day's copy stays, as a one-off (petprogress(7) §3).
            let deleted = echo.map { tr("%s (%s)", task.typed, $0.line(clock)) } ?? task.typed
            return (
                copy.map {
                    tr("Deleted %s: no more copies from tomorrow on; today's copy %s stays.", deleted, Handle.shown($0))
                } ?? tr("Deleted %s: no more copies from tomorrow on.", deleted), echo
            )
        }
        Output.lines([said] + (echo.map { [tr("Bring it back: %s", $0.addCommand)] } ?? []))
    }
}
