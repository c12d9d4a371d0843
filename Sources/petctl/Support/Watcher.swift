import ArgumentParser
import DBusKit
import Glibc
import LinuxKit
import PetBus
import PetCore

/// The loop behind `petctl watch`: the daemon followed (`DaemonFollower`), SIGTERM/SIGINT and
/// stdout's hang-up. It never polls the daemon.
final class Watcher {
    let line: PanelLine
    let daemon: DaemonFollower
    let stopSignals: SignalFD
    /// The daemon is gone: wait for its name, and do not call it (that would activate it again).
    var stopped = false
    var needsRefresh = true
    /// The refresh is the flip timer's, not a signal's: print only if the record changed.
    var timerRefresh = false
    var lastRecord: String?
    var exitCode: Int32?

    init(line: PanelLine, session: Session) throws {
        self.line = line
        stopSignals = try SignalFD(signals: [SIGTERM, SIGINT])
        daemon = try DaemonFollower(session, replyTimeout: Session.replyTimeout(.seconds(10)))
    }

    func run() throws -> Int32 {
        try daemon.follow { [unowned self] in follow($0) }
        daemon.loop.addFD(stopSignals.fd) { [unowned self] _ in
            _ = stopSignals.read()
            exitCode = 0
        }
        // A pipe whose reader went away reports an error on its write end: leave quietly.
        if StandardDescriptors.isOpen(1) { daemon.loop.addFD(1, events: []) { [unowned self] _ in exitCode = 0 } }
        while exitCode == nil {
            if needsRefresh {
                needsRefresh = false
                // A line only when the record changed (the first one always): a signal that
                // changes nothing a panel shows prints nothing (docs/DECISIONS.md).
                refresh(onlyIfChanged: true)
                timerRefresh = false
                continue
            }
            if !daemon.wait(until: { needsRefresh || exitCode != nil }) {
                Output.error(tr("lost the session bus; exiting"))
                return 3
            }
        }
        return exitCode ?? 0
    }

    private func follow(_ event: DaemonFollower.Event) {
        switch event {
        case .entryChanged, .tasksChanged:
            needsRefresh = true
            timerRefresh = false
        case .timer:
            needsRefresh = true
            timerRefresh = true
        case .owner(present: false):
            if !stopped { show(nil) }
            stopped = true
        case .owner(present: true):
            stopped = false
            needsRefresh = true
        }
    }

    /// Reads the entry and prints it; an unreachable daemon prints the stopped record.
    private func refresh(onlyIfChanged: Bool) {
        guard !stopped else { return }
        // The first read may start the daemon (a person ran watch); the later ones follow an
        // event, and a daemon that stopped meanwhile must stay stopped.
        let client =
            lastRecord == nil ? PetClient(connection: daemon.connection, timeout: daemon.client.timeout) : daemon.client
        do {
            let entry = try client.widgetEntry()
            if !onlyIfChanged || line.render(entry) != lastRecord { show(entry) }
            try daemon.armForNextFlip(entry)
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
