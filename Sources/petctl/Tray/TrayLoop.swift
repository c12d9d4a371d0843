import DBusKit
import Glibc
import LinuxKit
import PetBus
import PetCore

/// The loop behind `petctl tray` (petprogress(7) §8): one StatusNotifierItem and its menu, kept up
/// to date from the daemon's signals, registered with every watcher that appears. The daemon is
/// followed as `watch` follows it (`DaemonFollower`), with SIGTERM/SIGINT; it never polls.
final class TrayLoop {
    static let watcher = "org.kde.StatusNotifierWatcher"
    /// Owned by the one tray of a session: a session that starts it both ways (its unit and its
    /// autostart entry, petprogress(7) §8.1) still shows one pet.
    static let instance = "io.petprogress.Tray"
    static let shell = "org.gnome.Shell"
    /// The GNOME Shell extension that shows the pet in GNOME's top bar.
    static let extensionUUID = "petprogress@petprogress.io"

    let daemon: DaemonFollower
    var connection: Connection { daemon.connection }
    let stopSignals: SignalFD
    /// `org.kde.StatusNotifierItem-<pid>-1`, the name hosts know the item by.
    let itemName = "org.kde.StatusNotifierItem-\(getpid())-1"
    let publisher: TrayPublisher
    var state: TrayState
    var readPet = false
    var readTasks = false
    var exitCode: Int32?
    /// The watch on Plasma's layout, kept for the loop's lifetime (Plasma sessions only).
    var plasmaWatch: PlasmaLayoutWatch?
    /// The line on enabling the GNOME Shell extension has been said.
    var hinted = false

    init(session: Session, iconThemePath: String, clock: ClockStyle) throws {
        state = TrayState(clock: clock)
        stopSignals = try SignalFD(signals: [SIGTERM, SIGINT])
        daemon = try DaemonFollower(session, replyTimeout: .seconds(10))
        publisher = TrayPublisher(connection: daemon.connection, iconThemePath: iconThemePath)
    }

    func run() throws -> Int32 {
        // Open Today's launcher is never waited for: the kernel reaps it.
        signal(SIGCHLD, SIG_IGN)
        do { try connection.requestName(Self.instance) } catch NameRequestError.taken {
            Output.error(tr("petctl tray: a tray is already running in this session (it owns %s)", Self.instance))
            return 0
        } catch {
            Output.error(tr("petctl tray: cannot own %s (%s)", Self.instance, "\(error)"))
            return 1
        }
        connection.onDisconnect { [unowned self] in exitCode = 0 }
        try publisher.export(
            state: { [unowned self] in state }, activate: { [unowned self] in openToday() },
            perform: { [unowned self] in perform($0) })
        do { try connection.requestName(itemName) } catch {
            Output.error(tr("petctl tray: cannot own %s (%s)", itemName, "\(error)"))
            return 1
        }
        try subscribe()
        watchPlasmaLayout()
        daemon.loop.addFD(stopSignals.fd) { [unowned self] _ in
            _ = stopSignals.read()
            exitCode = 0
        }
        if (try? connection.nameHasOwner(PetBus.name)) == true {
            state.running = true
            readPet = true
        }
        update { _ in }
        if (try? connection.nameHasOwner(Self.watcher)) == true { register() }
        if (try? connection.nameHasOwner(Self.shell)) == true { askShell() }
        // No tray host a moment after the start (and no GNOME extension showing the pet): say so
        // once on stderr, and keep waiting for one to appear.
        let hostCheck = try TimerFD(clock: .monotonic)
        try hostCheck.arm(after: .seconds(3))
        _ = daemon.loop.addFD(hostCheck.fd) { [unowned self] _ in
            _ = hostCheck.read()
            // The GNOME hint already said it, with its remedy: one line, not two.
            guard (try? connection.nameHasOwner(Self.watcher)) != true, !state.hidden, !hinted else { return }
            Output.error(
                tr(
                    "petctl tray: no tray host in this session yet (nothing owns %s); waiting for one to appear",
                    Self.watcher))
        }
        while exitCode == nil {
            if readPet || readTasks {
                refresh()
                continue
            }
            _ = daemon.wait(until: { readPet || readTasks || exitCode != nil })
            if !connection.isConnected { exitCode = 0 }
        }
        return exitCode ?? 0
    }

    /// Changes the state and tells hosts what changed.
    private func update(_ change: (inout TrayState) -> Void) {
        var new = state
        change(&new)
        let old = state
        state = new
        publisher.publish(old: old, new: new)
    }

    private func subscribe() throws {
        try daemon.follow { [unowned self] event in
            switch event {
            case .entryChanged(let entry):
                // The hourly tick: the one moment the pet part changes.
                update { $0.pet = entry.pet }
                readTasks = true
            case .tasksChanged, .timer: readTasks = true
            case .owner(let present): ownerChanged(PetBus.name, present: present)
            }
        }
        for name in [Self.watcher, Self.shell] {
            try connection.onNameOwnerChanged(name) { [unowned self] present in ownerChanged(name, present: present) }
        }
        let extensions = MatchRule(
            sender: Self.shell, path: "/org/gnome/Shell", interface: "org.gnome.Shell.Extensions",
            member: "ExtensionStateChanged", arg0: Self.extensionUUID)
        _ = try connection.subscribe(extensions) { [unowned self] message in
            let info = (try? message.arguments())?.dropFirst().first
            update { $0.hidden = Self.extensionActive(info) }
        }
    }

    private func ownerChanged(_ name: String, present: Bool) {
        switch name {
        case PetBus.name:
            if present {
                update { $0.running = true }
                readPet = true
            } else {
                try? daemon.timer.disarm()
                update { $0.stop() }
            }
        case Self.watcher:
            // Hosts keep their items in memory: a new watcher knows nothing of this one.
            if present { register() }
        default:
            if present { askShell() } else { update { $0.hidden = false } }
        }
    }

    /// Reads the daemon's state; the pet part only when asked (the daemon appeared).
    private func refresh() {
        let withPet = readPet
        readPet = false
        readTasks = false
        guard state.running else { return }
        do throws(TrayReading.Failure) {
            let reading = try TrayReading.read(daemon.client)
            update {
                if withPet { $0.pet = reading.entry.pet }
                $0.tasksDone = reading.entry.tasksDone
                $0.tasksTotal = reading.entry.tasksTotal
                $0.upcoming = reading.upcoming
                $0.lastDone = reading.lastDone
                $0.clockLine = reading.clockLine
            }
            daemon.timer.armForNextFlip(reading.entry.upcoming, daemonNow: reading.daemonNow, scale: reading.timeScale)
        } catch {
            switch error {
            case .stopped: update { $0.stop() }
            case .failed(let problem): Output.error("petctl tray: \(problem)")  // not translated: a program name
            }
        }
    }

    /// Registers with the watcher, without waiting: it calls back into the item while it registers.
    private func register() {
        guard
            let message = try? Message.methodCall(
                destination: Self.watcher, path: "/StatusNotifierWatcher", interface: Self.watcher,
                member: "RegisterStatusNotifierItem")
        else { return }
        try? message.append([.string(itemName)])
        message.autoStart = false
        try? connection.send(message, timeout: .seconds(25)) { reply in
            if let error = reply.error {
                Output.error(tr("petctl tray: the tray did not take the item (%s)", error.message))
            }
        }
    }

    /// In a Plasma session: whether the Plasma widget is in a panel, now and whenever plasmashell
    /// rewrites its layout (the item then steps back, as it does for the GNOME extension).
    private func watchPlasmaLayout() {
        guard PlasmaLayout.isPlasmaSession(environment: .process),
            let path = PlasmaLayout.path(environment: .process)
        else { return }
        update { $0.widgetInPanel = PlasmaLayout.widgetInPanel(path: path) }
        guard let watch = PlasmaLayoutWatch(path: path) else { return }
        plasmaWatch = watch
        daemon.loop.addFD(watch.fd) { [unowned self] _ in
            guard watch.drain() else { return }
            update { $0.widgetInPanel = PlasmaLayout.widgetInPanel(path: watch.path) }
        }
    }

    /// Asks GNOME Shell whether the extension is on; its `ExtensionStateChanged` says the rest.
    private func askShell() {
        guard
            let message = try? Message.methodCall(
                destination: Self.shell, path: "/org/gnome/Shell", interface: "org.gnome.Shell.Extensions",
                member: "GetExtensionInfo")
        else { return }
        try? message.append([.string(Self.extensionUUID)])
        message.autoStart = false
        try? connection.send(message, timeout: .seconds(25)) { [unowned self] reply in
            guard reply.error == nil else { return }
            let info = (try? reply.arguments())?.first
            let active = Self.extensionActive(info)
            update { $0.hidden = active }
            // GNOME Shell shows no tray of its own: without the extension and without a watcher
            // (the AppIndicator extension), nothing shows the pet. Said once, with the remedy.
            if !active, !hinted, (try? connection.nameHasOwner(Self.watcher)) != true {
                hinted = true
                Output.error(
                    tr(
                        "petctl tray: GNOME Shell shows no tray here; to see the pet in its top bar, run: gnome-extensions enable %s",
                        Self.extensionUUID))
            }
        }
    }

    /// GNOME Shell's extension info (`a{sv}`) says the extension runs: `state` 1 (enabled/active).
    static func extensionActive(_ info: DBusValue?) -> Bool {
        info?.vardictValue?["state"]?.unwrappingVariants.doubleValue == 1
    }

    private func openToday() {
        do { try Launch.detached(["xdg-open", "petprogress://today"]) } catch {
            Output.error(tr("petctl tray: cannot open petprogress://today (%s); is xdg-open installed?", "\(error)"))
        }
    }

    /// A menu click.
    private func perform(_ action: MenuItem.Action) {
        do throws(PetClientError) {
            switch action {
            case .none: break
            case .done(let id): _ = try daemon.client.markDone(id)
            case .snooze(let id): _ = try daemon.client.snooze(id)
            case .undo(let id): try daemon.client.undo(id)
            case .openToday: openToday()
            case .startDaemon:
                // D-Bus activation, without waiting: the daemon's name appearing brings the pet back.
                guard
                    let message = try? Message.methodCall(
                        destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus",
                        interface: "org.freedesktop.DBus", member: "StartServiceByName")
                else { return }
                try? message.append([.string(PetBus.name), .uint32(0)])
                try? connection.send(message, timeout: .seconds(25)) { reply in
                    if let error = reply.error {
                        Output.error(tr("petctl tray: cannot start petprogressd (%s)", error.message))
                    }
                }
            }
        } catch {
            Output.error("petctl tray: " + Session.describe(error))  // not translated: a program name
        }
    }
}
