import PetBus
import PetCore
import PetStore

/// The daemon's brain: the world in memory, the store that makes it durable, and the rules that
/// map each request onto PetCore (petprogress(7) §3.2, §5, §6). Single-threaded: it runs on the event loop.
///
/// Every incoming message first brings days and the visible snapshot up to date (`refresh`, with
/// one clock read); the handler then works at that instant. A change is computed on a copy, made
/// durable, and only then adopted and acknowledged.
public final class PetService {
    public static let version = Product.version
    /// When a catch-up could not be saved, the timer tries again this soon (seconds), so ticks and
    /// closeouts are not left waiting for the next request.
    static let retryAfterStorageFailure: Instant = 60

    let stages: StageTable
    let icons: IconLocator
    /// The clock, zone, store, signal sink, timer and log (`Environment`).
    let environment: Environment
    /// The local zone; `rereadZone` updates it when `/etc/localtime` or the zone file changes.
    public internal(set) var zone: Zone { didSet { replies.invalidate() } }
    public internal(set) var world: PetWorld { didSet { replies.invalidate() } }
    /// The encoded replies kept until the world or the zone changes.
    let replies = ReplyCache()
    /// One sentence each, reported by `GetStatus`: those found at start-up, then the zone's.
    public var problems: [String] { startupProblems + [zoneProblem].compactMap { $0 } }
    let startupProblems: [String]
    /// The last recovery from a damaged state file (petprogress(7) §5), nil when there never was one.
    public internal(set) var recovery: Recovery?
    /// Why the local zone reads as UTC, while that lasts (`adopt`).
    public internal(set) var zoneProblem: String?
    /// The zone files the local zone was last read from (`LocalZone.files`), for the zone watch.
    public internal(set) var zoneFiles: [String]
    /// The instant of the last refresh: every request of one message works at it.
    private(set) var now: Instant
    /// Why the last refresh could not save the closeouts or the snapshot it was due, while that
    /// lasts: changes are refused meanwhile, as they would land on a day that has ended or before
    /// a tick that has passed.
    private var catchUpFailure: String?
    /// The closeouts of a catch-up's earlier steps whose signals are still to go out.
    private var pendingCloseoutSignals = 0
    /// The open day whose `clock_behind` the user acknowledged (keeping the days as closed).
    var clockBehindAcknowledged: DayKey?
    /// Runs pure work on a thread of its own and then `done` on the loop (LinuxKit's
    /// `OffLoopWork`); false when it cannot, and the caller runs the work in place. Set by the
    /// daemon's loop; nil (in place) in tests that run the service without one.
    public var offLoop: ((_ work: @escaping @Sendable () -> Void, _ done: @escaping () -> Void) -> Bool)?
    /// An import's document is being read off the loop: a second import is refused meanwhile.
    var importReading = false
    /// The most a page of history carries (`GetHistory`, `ExportStorePart`): `PetBus.pageBytes`
    /// (a test lowers it to page a small history by size).
    var pageBytes = PetBus.pageBytes
    /// The queued calls answered together, while there are (`answer`, `commit`): their changes are
    /// adopted in memory and saved once, before any of their replies is sent.
    var transaction: Transaction?
    /// While a call runs whose reply is not sent yet: the signals it causes, to follow the reply.
    var heldSignals: [ServiceSignals.Signal]?

    /// The service over `world` (as loaded), in the local zone `local` (as `environment.localZone`
    /// resolved it when the world was loaded).
    public init(
        world: PetWorld, zone local: LocalZone, stages: StageTable, icons: IconLocator, problems: [String],
        recovery: Recovery? = nil, environment: Environment
    ) {
        self.recovery = recovery
        self.world = world
        self.zone = local.zone
        self.zoneProblem = local.problem
        self.zoneFiles = local.files
        self.stages = stages
        self.icons = icons
        self.startupProblems = problems
        self.environment = environment
        self.now = world.openDay.start
    }

    var log: (String) -> Void { environment.log }
    var signals: ServiceSignals { environment.signals }

    /// The context of the current message (or timer wake).
    var context: Context { Context(now: now, zone: zone, stages: stages) }

    var iconPath: (Stage) -> String { { [icons] in icons.path(for: $0) } }

    /// Reads the clock, runs due closeouts and the snapshot rule, persists what they changed, and
    /// emits their signals (`TasksChanged` + `WidgetEntry` per closeout; `EntryChanged` once if a
    /// tick was crossed, never at start-up). On a storage failure nothing is adopted, so memory
    /// still matches the disk, and changes are refused; the next request, or the timer within a
    /// minute, tries again.
    @discardableResult
    public func refresh(startingUp: Bool = false) -> Bool {
        now = environment.now()
        return bringUpToDate(startingUp: startingUp)
    }

    /// The days a catch-up closes in one durable step (petprogress(7) §3.1): at the per-day task
    /// limit a step holds at most 6,200 tasks, whatever the number of days caught up.
    static let catchUpStep = 31

    /// The refresh at `now`: what it is due, persisted and announced, in bounded steps. A catch-up
    /// over more than one day first keeps the state as it was (`state-before-<open day>.json`);
    /// one resumed after a crash between steps (its open day was never live) does not again.
    private func bringUpToDate(startingUp: Bool) -> Bool {
        let ctx = context
        if world.catchUpSpansDays(ctx), world.openDayLive {
            if transaction != nil {
                commit()
                return bringUpToDate(startingUp: startingUp)
            }
            do {
                try environment.keepBeforeCatchUp(world)
                log("kept the state before catching up from \(world.openDay.key) as a snapshot")
            } catch {
                log("could not keep the state before catching up (\(error)); will retry at the next request or within a minute")
                catchUpFailure = error.message
                environment.wake(ctx.now + Self.retryAfterStorageFailure)
                return false
            }
        }
        while true {
            switch catchUpStep(ctx, startingUp: startingUp) {
            case .failed: return false
            case .done: return true
            case .more: continue
            }
        }
    }

    private enum StepOutcome { case done, more, failed }

    /// One bounded step of the refresh: at most `catchUpStep` days closed, persisted, adopted and
    /// announced; the snapshot rule runs in the step that closes the last due day.
    private func catchUpStep(_ ctx: Context, startingUp: Bool) -> StepOutcome {
        var next = world
        let caught = next.catchUp(ctx, startingUp: startingUp, limit: Self.catchUpStep)
        catchUpFailure = nil
        if caught.closeouts.isEmpty && !caught.snapshotChanged {
            environment.wake(caught.nextWake)
            return .done
        }
        if transaction != nil {
            // The transaction's calls are saved and answered first (or run again one at a time), so the
            // commit below follows them on disk and its signals follow their replies.
            commit()
            return catchUpStep(ctx, startingUp: startingUp)
        }
        do {
            if caught.closeouts.isEmpty {
                try environment.save(next)
            } else {
                try environment.closeDays(caught.closeouts, next)
            }
        } catch {
            log(
                "could not save the catch-up (\(error)); \(error.stateReplaced ? "the new state is on disk" : "will retry at the next request or within a minute")"
            )
            // Only adopt what the disk holds: the new state only when the file was already replaced.
            guard error.stateReplaced else {
                catchUpFailure = error.message
                environment.wake(
                    caught.more ? ctx.now + Self.retryAfterStorageFailure
                        : min(caught.nextWake, ctx.now + Self.retryAfterStorageFailure))
                return .failed
            }
        }
        world = next
        for closeout in caught.closeouts { logCloseout(closeout) }
        if caught.snapshotChanged, let snap = world.snapshot {
            log(
                "tick \(zone.localTime(at: snap.tick).date) \(zone.wallTime(at: snap.tick)): pet shows \(stages.stage(snap.pet.stageIndex).name) \(snap.pet.stageXP) XP"
            )
        }
        if caught.more {
            // The signals of a step's closeouts go out with the last step's: each is then the
            // entry as it finally stands, and a long catch-up does not flood the bus.
            pendingCloseoutSignals += caught.closeouts.count
            return .more
        }
        let entry = world.widgetEntry(ctx, iconPath: iconPath)
        for _ in 0..<(pendingCloseoutSignals + caught.closeouts.count) {
            emit(.tasksChanged)
            emit(.widgetEntryChanged(entry))
        }
        pendingCloseoutSignals = 0
        if caught.snapshotChanged && caught.closeouts.isEmpty { emit(.widgetEntryChanged(entry)) }
        if caught.emitEntryChanged { emit(.entryChanged(entry)) }
        environment.wake(caught.nextWake)
        return .done
    }

    /// Applies a change to a copy of the world, makes it durable, then adopts it. Throws the
    /// rule's error (nothing changes) or `StorageFailure` (nothing changes either, unless the new
    /// state file was already in place: then memory and applets follow the disk). A world the
    /// refresh could not bring up to date takes no change.
    func mutate<T>(_ change: (inout PetWorld, Context) throws(PetError) -> T) throws(PetError) -> T {
        if let catchUpFailure {
            throw PetError(
                .storageFailure, "The day could not be brought up to date (\(catchUpFailure)); nothing was changed.")
        }
        let ctx = context
        var next = world
        let result = try change(&next, ctx)
        try Self.checkBounds(next)
        if let transaction {
            // Saved by `commit`, before this call's reply or signals are sent.
            transaction.changed = true
            adoptChange(next, ctx)
            return result
        }
        do {
            try environment.save(next)
        } catch {
            log("could not save a change: \(error)")
            guard error.stateReplaced else {
                throw PetError(
                    .storageFailure, "The change could not be saved (\(error.message)); nothing was changed.")
            }
            // The file was replaced but the directory fsync failed: the change is on disk.
            adoptChange(next, ctx)
            throw PetError(.storageFailure, "The change was written but may not survive a crash (\(error.message)).")
        }
        adoptChange(next, ctx)
        return result
    }

    /// Refuses a changed world that the store's loader would refuse (petprogress(7) §5, "The same
    /// bounds on every write"): a date out of the years 1970–9999 is the request's fault
    /// (`InvalidArgument`), an internal counter past its bound a `StorageFailure` naming it.
    static func checkBounds(_ next: PetWorld) throws(PetError) {
        guard let problem = next.boundsProblem() else { return }
        switch problem.kind {
        case .date:
            throw PetError(
                .invalidArgument,
                "That would take a date past what the store keeps (\(problem)); nothing was changed.")
        case .counter:
            throw PetError(
                .storageFailure,
                "That would take a stored value past its bound (\(problem)); nothing was changed.")
        }
    }

    /// Makes a saved change the world, announcing a change to the entry's task part: the open
    /// day's tasks, whether it is a rest day, and the grace when a task is pending (the grace moves
    /// its overdue flag and instant).
    private func adoptChange(_ next: PetWorld, _ ctx: Context) {
        let graceMoved =
            next.settings.graceMinutes != world.settings.graceMinutes && next.tasks.contains { !$0.isDone }
        let tasksChanged = next.tasks != world.tasks || next.openDayIsRest != world.openDayIsRest || graceMoved
        world = next
        if tasksChanged {
            emit(.tasksChanged)
            emit(.widgetEntryChanged(world.widgetEntry(ctx, iconPath: iconPath)))
        }
    }

    /// Sends `signal`, or holds it for after the reply of the call that caused it.
    func emit(_ signal: ServiceSignals.Signal) {
        if heldSignals != nil { heldSignals?.append(signal) } else { signals.send(signal) }
    }

    private func logCloseout(_ closeout: Closeout) {
        guard let record = closeout.record else {
            log("closed \(closeout.day.key) (no tasks, neutral)")
            return
        }
        let pet = closeout.petAfter
        log(
            "closed \(closeout.day.key)\(record.rest ? " (rest day)" : ""): \(record.done) of \(record.total) done, \(record.xpChange >= 0 ? "+" : "")\(record.xpChange) XP, pet now \(stages.stage(pet.stageIndex).name) \(pet.stageXP) XP"
        )
    }
}

/// Where the service's signals go (the bus, in the daemon).
public struct ServiceSignals {
    var entryChanged: (WidgetEntry) -> Void
    var tasksChanged: () -> Void
    /// `PropertiesChanged` for the four settings (an import; a `Set` announces its own).
    var settingsChanged: (Settings) -> Void
    var widgetEntryChanged: (WidgetEntry) -> Void

    public init(
        entryChanged: @escaping (WidgetEntry) -> Void, tasksChanged: @escaping () -> Void,
        settingsChanged: @escaping (Settings) -> Void, widgetEntryChanged: @escaping (WidgetEntry) -> Void
    ) {
        self.entryChanged = entryChanged
        self.tasksChanged = tasksChanged
        self.settingsChanged = settingsChanged
        self.widgetEntryChanged = widgetEntryChanged
    }

    /// One of the signals, as a value (held until a reply has gone).
    enum Signal {
        case entryChanged(WidgetEntry)
        case tasksChanged
        case settingsChanged(Settings)
        case widgetEntryChanged(WidgetEntry)
    }

    /// Sends `signal`.
    func send(_ signal: Signal) {
        switch signal {
        case .entryChanged(let entry): entryChanged(entry)
        case .tasksChanged: tasksChanged()
        case .settingsChanged(let settings): settingsChanged(settings)
        case .widgetEntryChanged(let entry): widgetEntryChanged(entry)
        }
    }
}
