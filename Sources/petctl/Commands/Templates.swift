import ArgumentParser
import PetBus

/// `petctl templates`.
struct Templates: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "templates",
        abstract: tr("List the recurring templates."),
        discussion: tr("Each repeating task is named rN (r3), which edit and rm take (t-3, the older form, works too).\nExample: petctl templates   (then petctl edit r3 --time 07:30, or petctl rm r3)"))

    func run() throws {
        let (session, clock) = (Session(), ClockStyle())
        let templates = try session.run { client in try client.listTemplates() }
        guard !templates.isEmpty else {
            Output.lines([tr("No recurring tasks. Add one: petctl add 07:00 Stretch --repeat daily")])
            return
        }
        let width = Terminal.current(.never).width
        let idWidth = templates.map { Handle.template($0.id).count }.max() ?? 2
        let ruleWidth = templates.map { TextWidth.columns(PetText.rule($0.repeatRule)) }.max() ?? 5
        Output.lines(
            templates.map {
                let rule = TextWidth.pad(PetText.rule($0.repeatRule), to: ruleWidth)
                let prefix = "\(TextWidth.pad(Handle.template($0.id), to: idWidth))  \(clock.column($0.time))  \(rule)  "
                return prefix + Titles.forLine($0.title, width: width - TextWidth.columns(prefix))
            })
    }
}
