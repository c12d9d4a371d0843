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
    var now: Instant
    /// Why the last refresh could not save the closeouts or the snapshot it was due, while that
    /// lasts: changes are refused meanwhile, as they would land on a day that has ended or before
    /// a tick that has passed.
    var catchUpFailure: String?
    /// The closeouts of a catch-up's earlier steps whose signals are still to go out.
    var pendingCloseoutSignals = 0
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

    /// Sends `signal`, or holds it for after the reply of the call that caused it.
    func emit(_ signal: ServiceSignals.Signal) {
        if heldSignals != nil { heldSignals?.append(signal) } else { signals.send(signal) }
    }
}
