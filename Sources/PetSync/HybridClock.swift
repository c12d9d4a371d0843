import PetCore

/// A hybrid logical clock (Kulkarni et al. 2014): the device's wall clock in seconds, lifted to
/// stay ahead of everything the device has made or seen, and a counter for ties. It orders a
/// device's own operations even when its clock steps back, and puts an operation made after
/// seeing another one after it, whatever the two clocks read (docs/SYNC.md §3).
public struct HybridClock: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// Seconds since the epoch: the largest wall reading made or seen.
    public var wall: Instant
    /// Operations stamped within that same second, after the first.
    public var count: UInt32

    public init(wall: Instant, count: UInt32 = 0) {
        self.wall = wall
        self.count = count
    }

    public static let zero = HybridClock(wall: 0)

    public static func < (a: HybridClock, b: HybridClock) -> Bool { (a.wall, a.count) < (b.wall, b.count) }

    /// The stamp of an operation made at wall time `now`: later than every stamp made or seen.
    public mutating func stamp(now: Instant) -> HybridClock {
        if now > wall {
            self = HybridClock(wall: now)
        } else {
            count += 1
        }
        return self
    }

    /// Takes in a stamp seen on another device's operation.
    public mutating func observe(_ other: HybridClock) {
        if other > self { self = other }
    }

    public var description: String { "\(wall).\(count)" }
}
