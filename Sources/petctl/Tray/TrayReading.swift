import DBusKit
import PetBus
import PetCore

/// One read of what the tray shows: the entry, the open day's tasks and the daemon's clock, sent
/// together (one round trip), never starting the daemon (petprogress(7) §8: watching is not using).
struct TrayReading {
    var entry: WidgetEntry
    var upcoming: [TrayTask]
    var lastDone: TrayTask?
    /// The daemon's now (its clock may be a test clock); 0 when it does not say.
    var daemonNow: Instant
    /// Its `time_scale` (1 for the real clock).
    var timeScale: Double
    /// The clock that went back (`clock_behind`, petprogress(7) §3.1): the Today screen's line.
    var clockLine: String? = nil

    enum Failure: Error {
        /// The daemon's name has no owner (it stopped between the signal and the read).
        case stopped
        case failed(String)
    }

    /// The reading, through `PetClient.today()` (the members and reply keys are PetBus's) with the
    /// follower's client, which never starts the daemon.
    static func read(_ client: PetClient) throws(Failure) -> TrayReading {
        do throws(PetClientError) {
            let (_, entry, tasks, status) = try client.today()
            let last = tasks.filter(\.done).max { $0.completedSeq < $1.completedSeq }
            return TrayReading(
                entry: entry, upcoming: entry.upcoming.map(TrayTask.init), lastDone: last.map(TrayTask.init),
                daemonNow: status.now, timeScale: status.timeScale,
                clockLine: status.clockBehind ? Today.clockBehindLine(status) : nil)
        } catch {
            switch error {
            case .unreachable(let cause)
            where cause.name == DBusError.Name.serviceUnknown || cause.name.hasSuffix(".NameHasNoOwner"):
                throw .stopped
            case .malformedReply(let problem):
                throw .failed(tr("petprogressd's answer was not understood (%s)", problem.message))
            case .rejected(let rejection):
                throw .failed(rejection.message)
            case .unreachable(let cause), .noAnswer(let cause), .failed(let cause):
                throw .failed(cause.message)
            }
        }
    }
}
