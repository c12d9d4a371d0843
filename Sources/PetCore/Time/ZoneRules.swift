/// The offsets a zone puts in force: a table of transitions (from TZif data), then a POSIX TZ rule
/// for instants past the table — or only the rule, for a `TZ` rule string, or one fixed offset.
///
/// Two rules are equal when they hold the same data, so a tzdata upgrade that changes a zone makes
/// a different `Zone` even under the same name. The data sits in one immutable object: the rules
/// (and every `Zone` and `Context` holding them) copy as one reference.
public struct ZoneRules: Sendable, Hashable {
    let table: Table

    init(
        times: [Instant], offsets: [Int32], initial: Int, tail: PosixTZ?, leapTimes: [Instant] = [],
        leapCorrections: [Int32] = []
    ) {
        table = Table(
            times: times, offsets: offsets, initial: initial, tail: tail, leapTimes: leapTimes,
            leapCorrections: leapCorrections)
    }

    /// One offset for all time.
    public static func fixed(_ seconds: Int) -> ZoneRules {
        ZoneRules(times: [], offsets: [], initial: seconds, tail: nil)
    }

    /// A POSIX TZ rule for all time.
    public init(rule: PosixTZ) {
        self.init(times: [], offsets: [], initial: rule.standard.offset, tail: rule)
    }

    /// Seconds east of UTC in force at `t`.
    public func offset(at t: Instant) -> Int { table.offset(at: t) }

    var times: [Instant] { table.times }
    var tail: PosixTZ? { table.tail }

    public static func == (a: ZoneRules, b: ZoneRules) -> Bool { a.table === b.table || a.table == b.table }
    public func hash(into hasher: inout Hasher) { hasher.combine(table) }

    /// The rules' data.
    final class Table: Sendable, Hashable {
        /// Transition instants, strictly ascending.
        let times: [Instant]
        /// The offset in seconds east from each transition on (same count as `times`).
        let offsets: [Int32]
        /// The offset before the first transition.
        let initial: Int
        /// In force from the last transition on (with no transitions: always); nil keeps the last offset.
        let tail: PosixTZ?
        let tailNumbers: PosixTZ.Numbers?
        /// Leap seconds (the `right/` zones): from each instant on, the local clock is this many
        /// seconds behind, as glibc's `localtime` applies them.
        let leapTimes: [Instant]
        let leapCorrections: [Int32]

        init(
            times: [Instant], offsets: [Int32], initial: Int, tail: PosixTZ?, leapTimes: [Instant],
            leapCorrections: [Int32]
        ) {
            self.times = times
            self.offsets = offsets
            self.initial = initial
            self.tail = tail
            tailNumbers = tail?.numbers
            self.leapTimes = leapTimes
            self.leapCorrections = leapCorrections
        }

        func offset(at t: Instant) -> Int {
            leapTimes.isEmpty ? tableOffset(at: t) : tableOffset(at: t) - leapCorrection(at: t)
        }

        func tableOffset(at t: Instant) -> Int {
            // The rule takes over at the last transition itself, as in glibc and RFC 8536 §3.3.
            guard let last = times.last else { return tailNumbers?.offset(at: t) ?? initial }
            if t >= last { return tailNumbers?.offset(at: t) ?? Int(offsets[offsets.count - 1]) }
            let i = Self.count(of: times, atOrBefore: t)
            return i == 0 ? initial : Int(offsets[i - 1])
        }

        func leapCorrection(at t: Instant) -> Int {
            let i = Self.count(of: leapTimes, atOrBefore: t)
            return i == 0 ? 0 : Int(leapCorrections[i - 1])
        }

        /// How many of the ascending `instants` are at or before `t` (binary search).
        static func count(of instants: [Instant], atOrBefore t: Instant) -> Int {
            var lo = 0
            var hi = instants.count
            while lo < hi {
                let mid = (lo + hi) / 2
                if instants[mid] <= t { lo = mid + 1 } else { hi = mid }
            }
            return lo
        }

        static func == (a: Table, b: Table) -> Bool {
            (a.times, a.offsets, a.initial, a.tail, a.leapTimes, a.leapCorrections)
                == (b.times, b.offsets, b.initial, b.tail, b.leapTimes, b.leapCorrections)
        }

        func hash(into hasher: inout Hasher) {
            hasher.combine(times)
            hasher.combine(offsets)
            hasher.combine(initial)
            hasher.combine(tail)
        }
    }
}
