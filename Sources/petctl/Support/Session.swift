import ArgumentParser
import DBusKit
import LinuxKit
import PetBus
import PetCore

/// petctl's one connection to the session bus, shared by everything a command does (its
/// requests, `watch`, the interactive screen, the tray), and failures turned into petprogress(7)
/// §7's exit statuses, each reported as one sentence on stderr.
///
/// A command's `run` makes one and passes it down to whatever calls the daemon; there is no
/// process-wide connection to reach for.
final class Session {
    /// Opened by the first request, kept for the session's life: petctl is one thread, and the
    /// daemon answers one connection's calls in order.
    private var opened: Connection?

    init() {}

    /// The session's connection to the session bus, opened on first use.
    func connection() throws(PetClientError) -> Connection {
        if let opened { return opened }
        do {
            let connection = try Connection.session()
            opened = connection
            return connection
        } catch {
            throw .unreachable(error as? DBusError ?? .failed("\(error)"))
        }
    }

    /// A client on the session's connection. `autoStart: false` where petctl must not start the
    /// daemon (docs/DECISIONS.md, "Who may start the daemon"): shell completion, the
    /// tray, and every read that follows a signal, a timer or the daemon's name.
    func client(timeout: Duration, autoStart: Bool = true) throws(PetClientError) -> PetClient {
        PetClient(connection: try connection(), timeout: timeout, autoStart: autoStart)
    }

    /// Calls `body` with a client; a rejection exits 1, an unreachable daemon or bus exits 3, no
    /// answer in time exits 4. Other errors `body` throws (an ``ExitCode`` after ``refuse(_:)``)
    /// pass through.
    func run<T>(timeout: Duration = .seconds(25), _ body: (PetClient) throws -> T) throws -> T {
        do {
            return try body(try client(timeout: Self.replyTimeout(timeout)))
        } catch let error as PetClientError {
            throw Self.fail(error)
        }
    }

    /// The sentence for a failure that does not end the command (watch goes on).
    static func describe(_ error: PetClientError) -> String {
        switch error {
        case .rejected(let rejection): sentence(rejection)
        default: "\(error)"
        }
    }

    /// Reports `error` and returns the exit status to throw.
    static func fail(_ error: PetClientError) -> ExitCode {
        switch error {
        case .rejected(let rejection):
            Output.error(sentence(rejection))
            return ExitCode(1)
        case .unreachable(let cause):
            let why = cause.message.isEmpty ? cause.name : cause.message
            // A daemon `make run` started is no systemd unit: say how to reach it instead.
            if let file = makeRunFile() {
                Output.error(
                    tr(
                        "cannot reach petprogressd on the session bus (%s); make run started it: run . %s in this shell, or make run again",
                        why, file))
            } else {
                Output.error(
                    tr(
                        "cannot reach petprogressd on the session bus (%s); check that it is installed and running: systemctl --user status petprogress",
                        why))
            }
            return ExitCode(3)
        case .noAnswer:
            Output.error(
                tr(
                    "petprogressd did not answer in time, so the request may or may not have taken effect; check with petctl today before trying again"
                ))
            return ExitCode(4)
        case .failed(let cause):
            Output.error(tr("petprogressd answered with an error: %s", cause))
            return ExitCode(1)
        case .malformedReply(let problem):
            Output.error(
                tr(
                    "petprogressd's answer was not understood (%s); are petctl and the daemon the same version?",
                    problem.message))
            return ExitCode(1)
        }
    }

    /// The daemon's sentence as a person at the command line needs it: in the user's language
    /// where the catalogue has a sentence for the error's name (the daemon's own are English on
    /// the bus, petprogress(7) §6.1), else the daemon's, with petctl's commands where a D-Bus caller
    /// lists tasks with `ListTasks`. Where the daemon's sentence holds what matters (the limit,
    /// the field, the file), it is kept behind a translated lead-in.
    static func sentence(_ rejection: PetError) -> String {
        let busHint = "; list them with ListTasks."  // not translated: the daemon's own English
        let own =
            rejection.message.hasSuffix(busHint)
            // not translated: completes the daemon's English sentence, shown when nothing translates it.
            ? rejection.message.dropLast(busHint.count) + "; petctl today and petctl templates list them."
            : rejection.message
        let said: String? =
            switch rejection.kind {
            case .notFound:
                trIfTranslated("There is no such task or template; petctl today and petctl templates list them.")
            case .alreadyDone: trIfTranslated("That task is already done; petctl undo makes it pending again.")
            case .notDone: trIfTranslated("That task is not done, so there is nothing to undo.")
            case .nothingPending: trIfTranslated("Nothing is pending today; add a task first.")
            case .readOnlyDay: trIfTranslated("That day has ended and cannot change; only today and later days can.")
            case .invalidArgument: trIfTranslated("petprogressd refused the request: %s", own)
            case .storageFailure: trIfTranslated("petprogressd could not read or save its data: %s", own)
            }
        // Untranslated (C, English): the daemon's sentence, which says more.
        return said ?? own
    }

    /// How long a call waits for its reply: `fallback`, or `PETCTL_REPLY_TIMEOUT_MS` when set to a
    /// positive number of milliseconds (for tests that need a daemon's silence to end quickly).
    static func replyTimeout(_ fallback: Duration) -> Duration {
        guard let text = ProcessEnvironment.process["PETCTL_REPLY_TIMEOUT_MS"], let ms = Int(text), ms > 0 else {
            return fallback
        }
        return .milliseconds(ms)
    }

    /// A request petctl cannot make, judged by petctl itself with the daemon's data (no such
    /// handle today or tomorrow, nothing to undo): one sentence, exit 1.
    static func refuse(_ sentence: String) -> ExitCode {
        Output.error(sentence)
        return ExitCode(1)
    }
}

extension Session {
    /// The file `make run` (scripts/run.sh) leaves for a shell to source — in the user's runtime
    /// directory, else their cache directory — as a person types it (`~/…`), when it exists.
    static func makeRunFile() -> String? {
        let environment = ProcessEnvironment.process
        let home = environment["HOME"] ?? ""
        var places: [String] = []
        if let runtime = environment["XDG_RUNTIME_DIR"], runtime.hasPrefix("/") { places.append(runtime) }
        if let cache = environment["XDG_CACHE_HOME"], cache.hasPrefix("/") {
            places.append(cache)
        } else if home.hasPrefix("/") {
            places.append(home + "/.cache")
        }
        for place in places {
            let file = place + "/petprogress/make-run.env"
            guard FileSystem.exists(file) else { continue }
            let shown = !home.isEmpty && home != "/" && file.hasPrefix(home + "/") ? "~" + file.dropFirst(home.count) : file[...]
            return Titles.isolate(Titles.clean(String(shown)))
        }
        return nil
    }
}
