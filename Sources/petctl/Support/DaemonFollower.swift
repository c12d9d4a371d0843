import DBusKit
import LinuxKit
import PetBus
import PetCore

/// How `watch`, the interactive Today screen and the tray follow the daemon (petprogress(7) §6.1):
/// a session connection in one poll loop, the client on it, the daemon's signals and its name's
/// owner as events, and a timer for the instants nothing signals. None of them ever polls.
final class DaemonFollower {
    /// What happened to the daemon, as a client that shows it acts on it.
    enum Event: Equatable {
        /// `EntryChanged`: the hourly tick.
        case entryChanged(WidgetEntry)
        /// `TasksChanged`: the open day's tasks changed.
        case tasksChanged
        /// The daemon's name gained (`true`) or lost its owner, believed only from the bus: another
        /// connection's unicast `NameOwnerChanged` is not.
        case owner(present: Bool)
        /// The timer fired (the next due or overdue flip; a clock jump too).
        case timer
    }

    let connection: Connection
    let client: PetClient
    let loop = EventLoop()
    let timer: TimerFD

    /// Follows on the command's connection (`session`'s); failing to reach the bus, says so as
    /// every command does and throws its exit. The client never starts the daemon: its reads
    /// follow an event, and a daemon that stopped meanwhile stays stopped.
    init(_ session: Session, replyTimeout: Duration) throws {
        timer = try TimerFD(clock: .realtime)
        do throws(PetClientError) {
            connection = try session.connection()
        } catch {
            throw Session.fail(error)
        }
        client = PetClient(connection: connection, timeout: replyTimeout, autoStart: false)
        try loop.add(connection)
    }

    /// Delivers every event to `handler` while the loop runs.
    func follow(_ handler: @escaping (Event) -> Void) throws {
        do {
            _ = try client.subscribe { signal in Self.event(signal).map(handler) }
        } catch {
            throw Session.fail(error)
        }
        try connection.onNameOwnerChanged(PetBus.name) { handler(.owner(present: $0)) }
        loop.addFD(timer.fd) { [unowned self] _ in if timer.read() != .notYet { handler(.timer) } }
    }

    /// The event a signal makes: `PropertiesChanged` always accompanies one of the other two, so it
    /// makes none (it would be a second refresh, and in `watch` a second line).
    static func event(_ signal: PetSignal) -> Event? {
        switch signal {
        case .entryChanged(let entry): .entryChanged(entry)
        case .tasksChanged: .tasksChanged
        case .propertiesChanged: nil
        }
    }

    /// Sets the timer for the next flip of `entry`, on the daemon's clock.
    func armForNextFlip(_ entry: WidgetEntry) throws(PetClientError) {
        let status = try client.status()
        timer.armForNextFlip(entry.upcoming, daemonNow: status.now, scale: status.timeScale)
    }

    /// Runs the loop until `done` holds (a day at most); false when the session bus went away.
    func wait(until done: () -> Bool) -> Bool {
        loop.run(until: done, timeout: .seconds(86_400)) || connection.isConnected
    }
}
