import ArgumentParser
import PetBus

/// `petctl templates`.
struct Templates: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "templates",
        abstract: tr("List the recurring templates."),
        discussion: tr("Example: petctl templates   (then petctl edit t-3 --time 07:30, or petctl rm t-3)"))

    func run() throws {
        let templates = try Session.run { client in try client.listTemplates() }
        guard !templates.isEmpty else {
            Output.lines([tr("No recurring tasks. Add one: petctl add 07:00 Stretch --repeat daily")])
            return
        }
        let width = Terminal.current(.never).width
        let idWidth = templates.map { $0.id.count }.max() ?? 3
        let ruleWidth = templates.map { TextWidth.columns(PetText.rule($0.repeatRule)) }.max() ?? 5
        Output.lines(
            templates.map {
                let rule = TextWidth.pad(PetText.rule($0.repeatRule), to: ruleWidth)
                let prefix = "\(TextWidth.pad($0.id, to: idWidth))  \($0.time)  \(rule)  "
                return prefix + Titles.forLine($0.title, width: width - TextWidth.columns(prefix))
            })
    }
}
