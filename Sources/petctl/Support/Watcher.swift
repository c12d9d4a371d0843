import ArgumentParser
import DBusKit
import Glibc
import LinuxKit
import PetBus
import PetCore

/// The loop behind `petctl watch`: one poll loop over the bus, a timer for the next due or overdue flip,
/// SIGTERM/SIGINT and stdout's hang-up. It never polls the daemon.
final class Watcher {
    let line: PanelLine
    let connection: Connection
    let client: PetClient
    let loop = EventLoop()
    let timer: TimerFD
    let stopSignals: SignalFD
    /// The daemon is gone: wait for its name, and do not call it (that would activate it again).
    var stopped = false
    var needsRefresh = true
    /// The refresh is the flip timer's, not a signal's: print only if the record changed.
    var timerRefresh = false
    var lastRecord: String?
    var exitCode: Int32?

    init(line: PanelLine) throws {
        self.line = line
        stopSignals = try SignalFD(signals: [SIGTERM, SIGINT])
        timer = try TimerFD(clock: .realtime)
        do {
            connection = try Connection.session()
        } catch {
            throw Session.fail(.unreachable(error as? DBusError ?? .failed("\(error)")))
        }
        client = PetClient(connection: connection, timeout: Session.replyTimeout(.seconds(10)))
    }

    func run() throws -> Int32 {
        try loop.add(connection)
        try subscribe()
        loop.addFD(stopSignals.fd) { [unowned self] _ in
            _ = stopSignals.read()
            exitCode = 0
        }
        loop.addFD(timer.fd) { [unowned self] _ in
            if timer.read() != .notYet {
                needsRefresh = true
                timerRefresh = true
            }
        }
        // A pipe whose reader went away reports an error on its write end: leave quietly.
        if StandardDescriptors.isOpen(1) { loop.addFD(1, events: []) { [unowned self] _ in exitCode = 0 } }
        while exitCode == nil {
            if needsRefresh {
                needsRefresh = false
                refresh(onlyIfChanged: timerRefresh)
                timerRefresh = false
                continue
            }
            let ended = !loop.run(until: { needsRefresh || exitCode != nil }, timeout: .seconds(86_400))
            if ended, !connection.isConnected {
                Output.error(tr("lost the session bus; exiting"))
                return 3
            }
        }
        return exitCode ?? 0
    }

    private func subscribe() throws {
        do {
            _ = try client.subscribe { [unowned self] signal in
                switch signal {
                case .entryChanged, .tasksChanged:
                    needsRefresh = true
                    timerRefresh = false
                case .propertiesChanged: break  // always accompanies one of the two: not a second line
                }
            }
        } catch {
            throw Session.fail(error)
        }
        // Believed only from the bus: another connection's unicast NameOwnerChanged is not.
        try connection.onNameOwnerChanged(PetBus.name) { [unowned self] present in
            if !present {
                if !stopped { show(nil) }
                stopped = true
            } else {
                stopped = false
                needsRefresh = true
            }
        }
    }

    /// Reads the entry and prints it; an unreachable daemon prints the stopped record.
    private func refresh(onlyIfChanged: Bool) {
        guard !stopped else { return }
        do {
            let entry = try client.widgetEntry()
            if !onlyIfChanged || line.render(entry) != lastRecord { show(entry) }
            let status = try client.status()
            timer.armForNextFlip(entry, daemonNow: status.now, scale: status.timeScale)
        } catch .unreachable {
            stopped = true
            show(nil)
        } catch {
            Output.error(Session.describe(error))
        }
    }

    /// Writes one record and its newline at once (stdout may be a pipe: no buffering); a reader
    /// that went away ends watch with status 0.
    private func show(_ entry: WidgetEntry?) {
        let record = line.render(entry)
        lastRecord = record
        if !Output.writeAll(Array((record + "\n").utf8), to: 1) { exitCode = 0 }
    }
}
