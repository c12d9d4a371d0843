import LinuxKit
import PetCore

/// The state snapshots written at closeouts (petprogress(7) §5): `state-YYYY-MM-DD.json`, named by
/// the closed day's key, holding the state that closeout committed, the latest `kept` of them.
/// They are read only when `state.json` cannot be used.
struct Generations {
    static let kept = 7
    /// The temporary file a snapshot is written through; a leftover one is removed at load.
    static let temporaryName = ".state-snapshot.json.tmp"
    private static let prefix = "state-"
    private static let suffix = ".json"

    let folder: DataFolder

    static func name(_ day: DayKey) -> String { prefix + day.description + suffix }

    func path(_ day: DayKey) -> String { folder.path(Self.name(day)) }

    /// The days that have a snapshot, newest first.
    func days() throws(StoreError) -> [DayKey] { try days(prefix: Self.prefix) }

    /// Writes `bytes` as the snapshot of `day` (atomically, 0600), then removes all but the
    /// newest `kept` snapshots.
    func write(_ bytes: [UInt8], day: DayKey) throws(StoreError) {
        try write(bytes, prefix: Self.prefix, day: day, keeping: Self.kept)
    }

    /// A snapshot's bytes, nil when it has gone.
    func read(_ day: DayKey) throws(StoreError) -> [UInt8]? { try folder.readIfPresent(Self.name(day)) }

    // MARK: Before a catch-up

    /// The snapshots kept before a multi-day catch-up (petprogress(7) §3.1): the latest 3.
    static let keptBeforeCatchUp = 3
    private static let beforePrefix = "state-before-"

    /// `state-before-YYYY-MM-DD.json`, named after the open day the catch-up leaves.
    static func beforeName(_ day: DayKey) -> String { beforePrefix + day.description + suffix }

    /// The open days that have a snapshot taken before a catch-up, newest first.
    func daysBeforeCatchUp() throws(StoreError) -> [DayKey] { try days(prefix: Self.beforePrefix) }

    /// Writes `bytes` as the snapshot before the catch-up leaving `openDay` (atomically, 0600),
    /// then removes all but the newest `keptBeforeCatchUp` of them.
    func writeBeforeCatchUp(_ bytes: [UInt8], openDay: DayKey) throws(StoreError) {
        try write(bytes, prefix: Self.beforePrefix, day: openDay, keeping: Self.keptBeforeCatchUp)
    }

    // MARK: Both kinds

    /// The days of the files `<prefix>YYYY-MM-DD.json`, newest first. Only the canonical spelling:
    /// `state-2026-3-4.json` is not ours (and `state-before-…` is not a closeout's).
    private func days(prefix: String) throws(StoreError) -> [DayKey] {
        var days: [DayKey] = []
        try folder.forEachName { bytes in
            let name = String(decoding: bytes, as: UTF8.self)
            guard name.hasPrefix(prefix), name.hasSuffix(Self.suffix) else { return }
            let key = String(name.dropFirst(prefix.count).dropLast(Self.suffix.count))
            if let day = DayKey(parsing: key), day.description == key { days.append(day) }
        }
        return days.sorted(by: >)
    }

    /// Writes `<prefix><day>.json` atomically (0600), then removes all but the newest `kept`.
    private func write(_ bytes: [UInt8], prefix: String, day: DayKey, keeping kept: Int) throws(StoreError) {
        do {
            try AtomicReplace.write(
                bytes, to: prefix + day.description + Self.suffix, in: folder.file, through: .named(Self.temporaryName))
        } catch {
            throw StoreError(error.failure)
        }
        for old in try days(prefix: prefix).dropFirst(kept) { try folder.unlink(prefix + old.description + Self.suffix) }
    }
}
