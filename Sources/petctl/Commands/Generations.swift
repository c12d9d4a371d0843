import ArgumentParser
import PetBus

/// `petctl generations`: the snapshots the daemon keeps, which `petctl restore` goes back to
/// (petprogress(7) §5, §7).
struct Generations: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "generations",
        abstract: tr("List the snapshots of the store that petctl restore can go back to."),
        discussion: tr(
            """
            Newest first: the state after each of the last closeouts, the state before a catch-up \
            over several days (a clock set ahead, a long time away), and the data an import or a \
            restore replaced.

            Example:
              petctl generations
            """))

    func run() throws {
        let session = Session()
        let generations = try session.run { client in try client.listGenerations() }
        guard !generations.isEmpty else {
            Output.lines([tr("No snapshots yet: one is kept at each closeout.")])
            return
        }
        Output.lines(generations.map(Self.line))
    }

    static func line(_ g: GenerationRecord) -> String {
        let kind: String
        switch g.kind {
        case "closeout": kind = tr("after the closeout of %s", g.lastClosedDay)
        case "before-catch-up": kind = tr("before catching up from %s", g.openDay)
        case "import-backup": kind = tr("data replaced by an import or a restore")
        default: kind = g.kind
        }
        return tr(
            "%s  %s; open day %s, %s %d XP", g.name, kind, g.openDay, trc("pet form", dynamic: g.stageName), g.stageXP)
    }
}
