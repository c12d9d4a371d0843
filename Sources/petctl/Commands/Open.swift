import ArgumentParser

/// `petctl open [petprogress://today]`: the deep-link target (the panel's "tap the widget").
struct Open: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Open a petprogress:// link: petprogress://today shows the Today screen.",
        discussion: "Example: petctl open petprogress://today")

    static let accepted = "petprogress://today"

    @Argument(help: "The link; \(accepted) (the default).")
    var uri: String = accepted

    @OptionGroup var display: DisplayOptions

    func validate() throws {
        // Desktop launchers may pass the link with a trailing slash.
        guard uri == Self.accepted || uri == Self.accepted + "/" else {
            throw ValidationError("'\(uri)' is not a link petctl opens; the accepted form is \(Self.accepted)")
        }
    }

    func run() throws {
        let screen = try Session.run { client in try Today.screen(client) }
        display.show(screen)
    }
}
