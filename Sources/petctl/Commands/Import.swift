import ArgumentParser
import LinuxKit
import PetBus

/// `petctl import FILE [--replace] [--check]`: a JSON export made the daemon's store again (petprogress(7) §5, §7).
struct Import: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: tr("Restore a JSON export: the pet, settings, templates, rest days, tasks and all of history."),
        discussion: tr(
            """
            Reads a file written by petctl export (json) and makes it the daemon's whole store. The \
            daemon checks the whole file first and changes nothing if anything in it is wrong.

            Without --replace it only imports into a store that holds nothing yet; with it, the \
            current data is first kept in import-backup-<time>/ inside the data directory. --check \
            reports what the file holds and whether it would be imported, whatever the store holds, \
            changing nothing.

            Examples:
              petctl import backup.json --check
              petctl import backup.json --replace
            """))

    @Argument(help: ArgumentHelp(tr("The export to read (petctl export's json)."))) var file: String

    @Flag(help: ArgumentHelp(tr("Replace a store that already holds data (it is kept in a copy first)."))) var replace =
        false

    @Flag(help: ArgumentHelp(tr("Check the file and report; change nothing."))) var check = false

    func validate() throws {
        if file.isEmpty { throw ValidationError(tr("FILE needs a file name")) }
    }

    func run() throws {
        let session = Session()
        // Without blocking: a FIFO would otherwise wait here for a writer; the daemon refuses it.
        let document: FileDescriptor
        do {
            document = try FileDescriptor.open(file, .nonBlocking)
        } catch {
            throw Session.refuse(tr("cannot open %s: %s", file, error.reason))
        }
        defer { document.close() }
        // The daemon reads the document whole before it answers: time for it as for the rest,
        // and a second a MiB (a year at the task limit is about 30 MB; the bound is 1 GiB).
        let size = (try? document.size()).map { Int64(clamping: $0) } ?? 0
        let summary = try session.run(timeout: .seconds(25) + .seconds(size >> 20)) { client in
            try client.importDocument(descriptor: document.rawValue, replace: replace, dryRun: check)
        }
        Output.lines(Self.report(summary, file: file))
    }

    static func report(_ s: ImportSummary, file: String) -> [String] {
        let days = trn("%d closed day", "%d closed days", s.days)
        let span = s.days == 0 ? days : tr("%s (%s to %s)", days, s.firstDay, s.lastDay)
        let holds = tr(
            "%s with %s; open day %s with %s, %s for tomorrow, %s, %s; %s, %d XP.", span,
            trn("%d task", "%d tasks", s.historyTasks), s.openDay, trn("%d task", "%d tasks", s.openTasks),
            trn("%d task", "%d tasks", s.tomorrowTasks), trn("%d repeating task", "%d repeating tasks", s.templates),
            trn("%d rest day", "%d rest days", s.restDays), trc("pet form", dynamic: s.stageName), s.stageXP)
        guard s.imported else {
            let replace =
                s.needsReplace
                ? [tr("Pet Progress already holds data: importing the file needs --replace, which keeps the current data in a copy first.")]
                : []
            return [tr("%s can be imported: %s", file, holds)] + replace + [tr("Nothing was changed (--check).")]
        }
        return [tr("Imported %s: %s", file, holds), tr("The previous data is kept in %s.", s.keptIn)]
    }
}
