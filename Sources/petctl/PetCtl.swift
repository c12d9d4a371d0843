import ArgumentParser
import Glibc
import PetCore

/// `petctl`: the Today screen, task editing, settings and status on the command line, over the
/// daemon's D-Bus interface (petprogress(7) §7). Exit status: 0 success, 1 the daemon rejected the request,
/// 3 the daemon or the bus cannot be reached, 4 no answer in time, 64 bad usage.
@main
struct PetCtl: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "petctl",
        abstract: tr("Plan today, check tasks off and watch your pet grow."),
        discussion: tr(
            """
            petctl talks to petprogressd on your session bus (starting it through D-Bus activation \
            when it is installed). Today's tasks are named by the number \"petctl today\" shows (3), \
            tomorrow's by \"petctl tomorrow\"'s +N (+1), repeating tasks by the rN \
            \"petctl templates\" shows (r1; the older t-1 works too).

            Exit status: 0 success, 1 the daemon rejected the request (nothing changed), 3 the \
            daemon or the bus cannot be reached, 4 the daemon did not answer in time (the request may or \
            may not have taken effect: check with petctl today), 64 bad usage.
            """),
        version: Product.version,
        subcommands: [
            Today.self, Tomorrow.self, Add.self, Edit.self, Remove.self, Templates.self, Done.self, Snooze.self,
            Undo.self,
            SettingsCommand.self, Status.self, Timeline.self, Open.self, Widget.self, Watch.self, Rest.self,
            History.self, Log.self, Export.self, Import.self, Generations.self, RestoreCommand.self, Tray.self,
            Simulate.self,
        ],
        defaultSubcommand: Today.self)

    /// Parses and runs, printing errors as one line on stderr (argument-parser would add the usage).
    /// A panel's everyday lines take the fast path (`FastPath`).
    static func main() {
        L10n.setUp()
        let arguments = Array(CommandLine.arguments.dropFirst())
        do {
            // A panel's line first: naming every command (for a typo's "did you mean") reads each
            // one's translated help, which the lines panels run every few seconds do not need.
            let fast = try FastPath.command(arguments)
            if fast == nil, let problem = CommandNames.problem(arguments) {
                Output.error(problem)
                Glibc.exit(ExitCode.validationFailure.rawValue)
            }
            var command = try fast ?? parseAsRoot()
            try command.run()
        } catch {
            let code = exitCode(for: error)
            if code == .success {
                // --help, --version: argument-parser's text, to stdout. A command that ends with
                // ExitCode(0) (watch, tray, the interactive screen) has no text: an empty line
                // would be one more record in a panel's pipe.
                let message = fullMessage(for: error)
                if !message.isEmpty { print(message) }
                Glibc.exit(0)
            }
            if error is ExitCode {
                Glibc.exit(code.rawValue)  // A command's own status: it has reported the failure.
            }
            Output.error(tr("%s (see %s)", oneLine(fullMessage(for: error)), help(CommandNames.command(arguments))))
            Glibc.exit(code.rawValue)
        }
    }

    /// Where a usage error points: `petctl help add`, or `petctl help` for the command line as a whole.
    // not translated: commands, typed as they are in every language.
    static func help(_ command: String) -> String { command.isEmpty ? "petctl help" : "petctl help \(command)" }

    /// argument-parser's error message without its usage lines, on one line: `Error: ` dropped, a
    /// list of accepted values joined with commas.
    static func oneLine(_ message: String) -> String {
        let lines = message.split(separator: "\n").prefix { !$0.hasPrefix("Usage:") }
            .map { $0.trimmingPrefix(while: { $0 == " " }) }
        guard let first = lines.first else { return tr("bad usage") }
        let values = lines.dropFirst().filter { $0.hasPrefix("- ") }.map { $0.dropFirst(2) }
        let sentence = first.hasPrefix("Error: ") ? first.dropFirst("Error: ".count) : first[...]
        return values.isEmpty ? String(sentence) : "\(sentence) \(values.joined(separator: ", "))"
    }
}
