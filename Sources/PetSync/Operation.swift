import PetCore

/// `<device>.<seq>.<digest>`: unique for every distinct operation ever made, the same on every
/// device that holds it.
public typealias OperationID = String

/// One accepted change as a device made it: who (device id and its sequence number), when (the
/// hybrid clock that orders it, and the device's wall clock that judges it), and what.
public struct Operation: Hashable, Sendable {
    public let device: String
    /// 1, 2, 3… per device.
    public let seq: UInt64
    /// The total order's first key.
    public let clock: HybridClock
    /// The device's wall clock when the user made the change: the `now` the rules judge it at.
    public let at: Instant
    public let change: Change
    /// FNV-1a of the operation's line: two different operations under one (device, seq) stay two.
    public let digest: UInt64

    public init(device: String, seq: UInt64, clock: HybridClock, at: Instant, change: Change) {
        self.device = device
        self.seq = seq
        self.clock = clock
        self.at = at
        self.change = change
        self.digest = FNV1a.hash(
            OperationLine.body(device: device, seq: seq, clock: clock, at: at, change: change).utf8)
    }

    public var id: OperationID { "\(device).\(seq).\(hex(digest))" }

    /// The line this operation is written as in its device's log, newline included.
    public var line: String {
        OperationLine.body(device: device, seq: seq, clock: clock, at: at, change: change) + "\n"
    }

    /// The total order every device folds in: hybrid clock, then device id, sequence number and
    /// digest, so that no two distinct operations tie.
    public static func precedes(_ a: Operation, _ b: Operation) -> Bool {
        if a.clock != b.clock { return a.clock < b.clock }
        if a.device != b.device { return a.device < b.device }
        if a.seq != b.seq { return a.seq < b.seq }
        return a.digest < b.digest
    }
}
