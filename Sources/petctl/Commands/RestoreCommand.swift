import ArgumentParser
import PetBus

/// `petctl restore NAME [--check]`: the store back to one of its snapshots (petprogress(7) §5, §7).
struct RestoreCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "restore",
        abstract: tr("Go back to a snapshot of the store (petctl generations lists them)."),
        discussion: tr(
            """
            The store becomes the snapshot NAME. History after it, and the rest of the current \
            data, is moved aside into import-backup-<time>/ inside the data directory, so nothing \
            is lost; the days since are then closed again as usual. This is how to undo a clock \
            that was set ahead, or a bad week of data. --check says what would change, changing \
            nothing.

            Examples:
              petctl restore state-before-2026-12-07.json --check
              petctl restore state-before-2026-12-07.json
            """))

    @Argument(help: ArgumentHelp(tr("The snapshot's name, as petctl generations shows it."))) var name: String

    @Flag(help: ArgumentHelp(tr("Say what would change; change nothing."))) var check = false

    func validate() throws {
        if name.isEmpty { throw ValidationError(tr("NAME needs a snapshot's name (petctl generations)")) }
    }

    func run() throws {
        let session = Session()
        let summary = try session.run { client in try client.restore(name: name, dryRun: check) }
        Output.lines(Self.report(summary))
    }

    static func report(_ s: RestoreSummary) -> [String] {
        let aside =
            s.daysSetAside == 0
            ? tr("no closed day of history is set aside")
            : tr(
                "%s of history (%s to %s) set aside", trn("%d closed day", "%d closed days", s.daysSetAside),
                s.firstDaySetAside, s.lastDaySetAside)
        let pets = tr(
            "the pet goes from %s %d XP to %s %d XP", trc("pet form", dynamic: s.stageNameBefore), s.stageXPBefore,
            trc("pet form", dynamic: s.stageNameAfter), s.stageXPAfter)
        guard s.restored else {
            return [tr("%s can be restored: open day %s; %s; %s.", s.name, s.openDay, aside, pets),
                    tr("Nothing was changed (--check).")]
        }
        return [tr("Restored %s: open day %s; %s; %s.", s.name, s.openDay, aside, pets),
                tr("The previous data is kept in %s.", s.keptIn)]
    }
}
