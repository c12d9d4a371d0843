import ArgumentParser
import DBusKit
import Glibc
import LinuxKit
import PetBus
import PetCore

/// The loop behind `petctl today --interactive` (petprogress(7) §7): the daemon followed as `watch`
/// follows it (`DaemonFollower`), the keyboard and the signals; the screen is drawn in one write per
/// change. It never polls. What each key does is in `InteractiveToday+Keys.swift`.
final class InteractiveToday {
    let daemon: DaemonFollower
    var client: PetClient { daemon.client }
    let modes = TerminalModes()
    let signals: SignalFD
    var state = InteractiveState()
    var style: Style
    /// The daemon is gone: wait for its name, and do not call it (that would activate it again).
    var stopped = false
    var needsRefresh = true
    var needsDraw = true
    var exitCode: Int32?
    var frame: InteractiveFrame?

    /// The command's connection, which the first read may use to start the daemon.
    let session: Session
    /// How the locale writes times, for the screens and the status line.
    let clock: ClockStyle

    init(session: Session, color: Bool, clock: ClockStyle) throws {
        signals = try SignalFD(signals: [SIGTERM, SIGINT, SIGHUP, SIGWINCH])
        daemon = try DaemonFollower(session, replyTimeout: Session.replyTimeout(.seconds(10)))
        style = Style(on: color)
        self.session = session
        self.clock = clock
    }

    /// Runs until `q`, Esc, a signal or a lost terminal; the terminal's modes are restored on every
    /// way out, thrown errors included.
    func run() throws -> Int32 {
        // The first read activates the daemon, as `petctl today` does, and fails before the screen.
        state.screen = try session.run { try Today.screen($0, clock: clock) }
        state.settle()
        try daemon.follow { [unowned self] in follow($0) }
        daemon.loop.addFD(signals.fd) { [unowned self] _ in
            for signal in signals.read() {
                if signal == SIGWINCH { needsDraw = true } else { exitCode = 0 }
            }
        }
        daemon.loop.addFD(0) { [unowned self] events in readKeys(events) }
        do {
            try modes.enter()
        } catch {
            Output.error(tr("cannot put the terminal in raw mode (%s); use petctl today", "\(error)"))
            return 1
        }
        defer { modes.leave() }
        while exitCode == nil {
            if needsRefresh {
                needsRefresh = false
                refresh()
                needsDraw = true
            }
            if needsDraw {
                needsDraw = false
                draw()
                continue
            }
            if !daemon.wait(until: { needsRefresh || needsDraw || exitCode != nil }) {
                modes.leave()
                Output.error(tr("lost the session bus; exiting"))
                return 3
            }
        }
        return exitCode ?? 0
    }

    private func follow(_ event: DaemonFollower.Event) {
        switch event {
        case .entryChanged, .tasksChanged, .timer: needsRefresh = true
        case .owner(present: false):
            stopped = true
            state.say(Self.notRunning, problem: true)
            needsDraw = true
        case .owner(present: true):
            stopped = false
            state.say("")
            needsRefresh = true
        }
    }

    static var notRunning: String { tr("not running: waiting for petprogressd") }

    private func refresh() {
        guard !stopped else { return }
        do {
            var screen = try Today.screen(client, clock: clock)
            // The form-change line is said once per closeout: keep it for this screen's life.
            screen.formChange = screen.formChange ?? state.screen?.formChange
            state.screen = screen
            state.settle()
            if state.showsTomorrow {
                state.tomorrow = try Tomorrow.screen(client, clock: clock)
                state.settle()
            }
            try daemon.armForNextFlip(screen.entry)
        } catch let error as PetClientError {
            report(error)
        } catch {
            state.say("\(error)", problem: true)
        }
    }

    func report(_ error: PetClientError) {
        switch error {
        case .unreachable:
            stopped = true
            state.say(Self.notRunning, problem: true)
        case .noAnswer:
            state.say(tr("petprogressd did not answer in time; it may or may not have happened"), problem: true)
        default:
            state.say(Session.describe(error), problem: true)
        }
    }

    // MARK: drawing

    private func draw() {
        let size = TerminalDevice.size(1).flatMap { $0.rows > 0 ? $0 : nil }
        let (width, height) = size ?? (80, 24)
        let frame = InteractiveFrame(state, width: width, height: height, style: style)
        self.frame = frame
        // Home, then each line cleared and written: one write per picture.
        var text = "\u{1B}[H"
        for (n, line) in frame.lines.enumerated() {
            text += "\u{1B}[2K" + TerminalText.clean(line) + (n + 1 < frame.lines.count ? "\r\n" : "")
        }
        // A terminal that went away (SIGHUP, EIO, a broken pipe) ends the screen.
        if !Output.writeAll(Array(text.utf8), to: 1) { exitCode = 0 }
    }
}
