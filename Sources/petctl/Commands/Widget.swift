import ArgumentParser
import PetBus

/// `petctl widget`: the panel's entry once.
struct Widget: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "widget",
        abstract: tr("Print the panel's entry once, in a panel's format."),
        discussion: tr(
            """
            For panels that run a command on an interval. A daemon that cannot be reached prints the \
            "not running" record of the format and exits 3.

            Examples:
              petctl widget --format waybar
              petctl widget --template '{glyph} {done}/{total} {next_time} {next_title}'
            """))

    @OptionGroup var panel: PanelOptions

    func run() throws {
        let line = panel.line(ClockStyle())
        do {
            let entry = try Session().client(timeout: Session.replyTimeout(.seconds(10))).widgetEntry()
            Output.lines([line.render(entry)])
        } catch .unreachable(let cause) {
            Output.lines([line.render(nil)])
            throw Session.fail(.unreachable(cause))
        } catch {
            throw Session.fail(error)
        }
    }
}
