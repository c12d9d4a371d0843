import ArgumentParser
import PetBus
import PetCore

/// Runs a command's requests on the session bus and turns failures into petprogress(7) §7's exit statuses,
/// each reported as one sentence on stderr.
enum Session {
    /// Calls `body` with a client; a rejection exits 1, an unreachable daemon or bus exits 3, no
    /// answer in time exits 4. Other errors `body` throws (an ``ExitCode`` after ``refuse(_:)``)
    /// pass through.
    static func run<T>(_ body: (PetClient) throws -> T) throws -> T {
        do {
            return try body(try PetClient.session(timeout: replyTimeout(.seconds(25))))
        } catch let error as PetClientError {
            throw fail(error)
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
            Output.error(
                "cannot reach petprogressd on the session bus (\(cause.message.isEmpty ? cause.name : cause.message)); "
                    + "check that it is installed and running: systemctl --user status petprogress")
            return ExitCode(3)
        case .noAnswer:
            Output.error(
                "petprogressd did not answer in time, so the request may or may not have taken effect; "
                    + "check with petctl today before trying again")
            return ExitCode(4)
        case .failed(let cause):
            Output.error("petprogressd answered with an error: \(cause)")
            return ExitCode(1)
        case .malformedReply(let problem):
            Output.error(
                "petprogressd's answer was not understood (\(problem.message)); are petctl and the daemon the same version?"
            )
            return ExitCode(1)
        }
    }

    /// The daemon's sentence as a person at the command line needs it: a D-Bus caller lists tasks
    /// with `ListTasks`, a petctl user with petctl's commands.
    static func sentence(_ rejection: PetError) -> String {
        let busHint = "; list them with ListTasks."
        guard rejection.message.hasSuffix(busHint) else { return rejection.message }
        return rejection.message.dropLast(busHint.count) + "; petctl today and petctl templates list them."
    }

    /// How long a call waits for its reply: `fallback`, or `PETCTL_REPLY_TIMEOUT_MS` when set to a
    /// positive number of milliseconds (for tests that need a daemon's silence to end quickly).
    static func replyTimeout(_ fallback: Duration) -> Duration {
        guard let text = Environment.process["PETCTL_REPLY_TIMEOUT_MS"], let ms = Int(text), ms > 0 else {
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
