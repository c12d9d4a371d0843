import ArgumentParser
import PetBus
import PetCore

/// `petctl export [--format json|csv] [--output FILE] [--force]`: the user's data, to take away.
struct Export: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: tr("Export all of history, today, templates, settings, rest days and the pet."),
        discussion: tr(
            """
            json (the default) is one document with a schema version: every closed day with its \
            tasks, the open day's and tomorrow's tasks, templates, settings, rest days and the pet, \
            and (under "store") what petctl import needs to restore all of it exactly. \
            csv is one row per task of every closed day, for a spreadsheet.

            --output writes a file atomically, readable only by you, and never replaces an existing \
            file unless --force is given (without it: exit status 1, nothing written).

            Examples:
              petctl export > backup.json
              petctl export --format csv --output tasks.csv
            """))

    enum Format: String, CaseIterable, ExpressibleByArgument {
        case json, csv
    }

    @Option(help: ArgumentHelp(tr("json or csv."))) var format: Format = .json

    @Option(help: ArgumentHelp(tr("Write to this file instead of standard output."))) var output: String?

    @Flag(help: ArgumentHelp(tr("Replace the --output file if it exists."))) var force = false

    func validate() throws {
        if force, output == nil { throw ValidationError(tr("--force only applies with --output FILE")) }
        if output?.isEmpty == true { throw ValidationError(tr("--output needs a file name")) }
    }

    func run() throws {
        let session = Session()
        // Refuse at once rather than after reading all of history; the write itself checks again.
        if let output, !force, AtomicFile.exists(output) {
            throw Session.refuse(tr("%s already exists; add --force to replace it", output))
        }
        let document = try session.run(Self.gather)
        let text = format == .json ? document.json : document.csv
        guard let output else {
            Output.text(text)
            return
        }
        do {
            try AtomicFile.write(Array(text.utf8), to: output, replace: force)
        } catch {
            throw Session.refuse(error.sentence)
        }
        let tasks = document.history.reduce(0) { $0 + $1.tasks.count }
        let days = document.history.count
        Output.lines(
            [
                tr(
                    "Exported %s (%s) to %s.", trn("%d closed day", "%d closed days", days),
                    trn("%d task", "%d tasks", tasks), output)
            ]
        )
    }

    /// Reads everything, history last (it takes the most calls).
    static func gather(_ client: PetClient) throws -> ExportDocument {
        let status = try client.status()
        return ExportDocument(
            status: status, settings: try client.settings(), pet: try client.pet(),
            restDays: try client.listRestDays(), templates: try client.listTemplates(),
            today: try client.listTasks(day: ""), todayIsRest: try client.widgetEntry().restDay,
            tomorrow: try client.listTasks(day: "tomorrow"), history: try client.allHistory(),
            store: try client.wholeStore())
    }
}
