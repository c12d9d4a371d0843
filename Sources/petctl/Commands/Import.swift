import ArgumentParser
import LinuxKit
import PetBus

/// `petctl import FILE [--replace] [--check]`: a JSON export made the daemon's store again (petprogress(7) §5, §7).
struct Import: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Restore a JSON export: the pet, settings, templates, rest days, tasks and all of history.",
        discussion: """
            Reads a file written by petctl export (json) and makes it the daemon's whole store. The \
            daemon checks the whole file first and changes nothing if anything in it is wrong.

            Without --replace it only imports into a store that holds nothing yet; with it, the \
            current data is first kept in import-backup-<time>/ inside the data directory. --check \
            reports what the file holds and whether it would be imported, changing nothing.

            Examples:
              petctl import backup.json --check
              petctl import backup.json --replace
            """)

    @Argument(help: "The export to read (petctl export's json).") var file: String

    @Flag(help: "Replace a store that already holds data (it is kept in a copy first).") var replace = false

    @Flag(help: "Check the file and report; change nothing.") var check = false

    func validate() throws {
        if file.isEmpty { throw ValidationError("FILE needs a file name") }
    }

    func run() throws {
        // Without blocking: a FIFO would otherwise wait here for a writer; the daemon refuses it.
        let document: FileDescriptor
        do {
            document = try FileDescriptor.open(file, .nonBlocking)
        } catch {
            throw Session.refuse("cannot open \(file): \(error.reason)")
        }
        defer { document.close() }
        let summary = try Session.run { client in
            try client.importDocument(descriptor: document.rawValue, replace: replace, dryRun: check)
        }
        Output.lines(Self.report(summary, file: file))
    }

    static func report(_ s: ImportSummary, file: String) -> [String] {
        func count(_ n: Int, _ what: String) -> String { "\(n) \(what)\(n == 1 ? "" : "s")" }
        let span = s.days == 0 ? "" : " (\(s.firstDay) to \(s.lastDay))"
        let holds =
            "\(count(s.days, "closed day"))\(span) with \(count(s.historyTasks, "task")); open day \(s.openDay) with "
            + "\(count(s.openTasks, "task")), \(count(s.tomorrowTasks, "task")) for tomorrow, "
            + "\(count(s.templates, "repeating task")), \(count(s.restDays, "rest day")); \(s.stageName), \(s.stageXP) XP."
        guard s.imported else { return ["\(file) can be imported: \(holds)", "Nothing was changed (--check)."] }
        return ["Imported \(file): \(holds)", "The previous data is kept in \(s.keptIn)."]
    }
}
