import PetCore

/// The schema version every file of the store carries, and the migrations from older ones.
///
/// Schema 0 is the pre-release shape: the world's `pet` and `lastClosed` keys (now `openingPet` and
/// `lastClosedDay`), tasks' `snooze` (now `snoozedUntil`), no `openDayLive`, no `rollover` setting,
/// and history records with `petBefore`/`petAfter` (now `petAtOpen`/`petAtClose`).
///
/// Schema 1 is the release before rest days: no `restDays` in the world, no `rest` and no
/// `resultXP` (the daily result's XP) in history records.
///
/// Schema 2 is the release before away days: no `touchedDays` and no `lookBackTouched` in the
/// world, no `presence` in history records.
///
/// Schema 3 is the release before task numbers: no `number` in tasks, no `lastNumber` and no
/// `lastTomorrowNumber` in the world.
///
/// A migration is a function on the parsed JSON object, so it never needs the old Swift types.
/// Today's keys are the stored types' own (`Stored/`); the old ones are spelled here only.
public enum Schema {
    /// The version this build writes.
    public static let current = 4

    typealias Object = [String: JSONValue]

    // Closures, not the functions' names: Swift 6.0's compiler crashes converting a function to
    // `@Sendable` inside a dictionary literal (Debian 13's swiftlang).
    /// Migrations of a state file's `world`, keyed by the version they migrate from.
    static let worldMigrations: [Int: @Sendable (Object) -> Object] = [
        0: { worldFrom0($0) }, 1: { worldFrom1($0) }, 2: { worldFrom2($0) }, 3: { worldFrom3($0) },
    ]
    /// Migrations of a history line's `record`, keyed by the version they migrate from.
    static let recordMigrations: [Int: @Sendable (Object) -> Object] = [
        0: { recordFrom0($0) }, 1: { recordFrom1($0) }, 2: { recordFrom2($0) }, 3: { recordFrom3($0) },
    ]

    /// Runs the migrations from `version` up to `current`; nil when a step is missing.
    static func migrate(_ object: Object, from version: Int, using steps: [Int: @Sendable (Object) -> Object])
        -> Object?
    {
        var value = object
        for v in version..<current {
            guard let step = steps[v] else { return nil }
            value = step(value)
        }
        return value
    }

    private typealias WorldKey = PetWorld.Key
    private typealias Record = DayRecord.Key

    private static func worldFrom0(_ old: Object) -> Object {
        var w = old
        rename(&w, "pet", to: WorldKey.openingPet)
        rename(&w, "lastClosed", to: WorldKey.lastClosedDay)
        if w[WorldKey.openDayLive] == nil { w[WorldKey.openDayLive] = .bool(true) }
        if var settings = w[WorldKey.settings]?.object {
            if settings[Settings.Key.rollover] == nil { settings[Settings.Key.rollover] = .bool(false) }
            w[WorldKey.settings] = .object(settings)
        }
        for key in [WorldKey.tasks, WorldKey.tomorrow] { w[key] = tasksFrom0(w[key]) }
        return w
    }

    private static func recordFrom0(_ old: Object) -> Object {
        var r = old
        rename(&r, "petBefore", to: Record.petAtOpen)
        rename(&r, "petAfter", to: Record.petAtClose)
        r[Record.tasks] = tasksFrom0(r[Record.tasks])
        return r
    }

    /// No day was marked before rest days existed.
    private static func worldFrom1(_ old: Object) -> Object {
        var w = old
        if w[WorldKey.restDays] == nil { w[WorldKey.restDays] = .array([]) }
        return w
    }

    /// An old record is not a rest day, and its daily result's XP is what is left of its XP change
    /// once the completions' awards and the misses (2 per undone task) are taken out.
    private static func recordFrom1(_ old: Object) -> Object {
        var r = old
        if r[Record.rest] == nil { r[Record.rest] = .bool(false) }
        if r[Record.resultXP] == nil, case .integer(let change)? = r[Record.xpChange],
            case .array(let tasks)? = r[Record.tasks], case .integer(let done)? = r[Record.done],
            case .integer(let total)? = r[Record.total]
        {
            let awards = tasks.reduce(Int64(0)) {
                if case .integer(let xp)? = $1[TaskItem.Key.xp.stringValue] { $0 + xp } else { $0 }
            }
            r[Record.resultXP] = .integer(change - awards + 2 * (total - done))
        }
        return r
    }

    /// A store from before away days (petprogress(7) §3.1): the open day and the last closed day
    /// count as touched. The changes the old store still shows were aimed at their days too: the
    /// next day's tasks added in advance, and the marked rest days.
    private static func worldFrom2(_ old: Object) -> Object {
        var w = old
        if w[WorldKey.lookBackTouched] == nil { w[WorldKey.lookBackTouched] = .bool(true) }
        if w[WorldKey.touchedDays] == nil {
            var keys: [String] = []
            if case .string(let open)? = w[WorldKey.openDay]?.object?[Day.Key.key.stringValue] { keys.append(open) }
            if case .array(let tomorrow)? = w[WorldKey.tomorrow] {
                for task in tomorrow {
                    if case .string(let key)? = task.object?[TaskItem.Key.dayKey.stringValue] { keys.append(key) }
                }
            }
            if case .array(let rest)? = w[WorldKey.restDays] {
                for case .string(let key) in rest { keys.append(key) }
            }
            w[WorldKey.touchedDays] = .array(Set(keys).sorted().map(JSONValue.string))
        }
        return w
    }

    /// An old record was judged as it says: present.
    private static func recordFrom2(_ old: Object) -> Object {
        var r = old
        if r[Record.presence] == nil { r[Record.presence] = .string(Presence.present.rawValue) }
        return r
    }

    /// Each day's tasks numbered 1, 2, 3… in the order they were added (their creation order),
    /// the open day's and the next day's alike (petprogress(7) §3; docs/DECISIONS.md).
    private static func worldFrom3(_ old: Object) -> Object {
        var w = old
        for (list, last) in [(WorldKey.tasks, WorldKey.lastNumber), (WorldKey.tomorrow, WorldKey.lastTomorrowNumber)] {
            let (numbered, count) = numbered(w[list])
            w[list] = numbered
            if w[last] == nil { w[last] = .integer(Int64(count)) }
        }
        return w
    }

    private static func recordFrom3(_ old: Object) -> Object {
        var r = old
        r[Record.tasks] = numbered(r[Record.tasks]).tasks
        return r
    }

    /// The tasks with a `number` each, by creation order (`order`, then place in the list), and
    /// how many there are.
    private static func numbered(_ value: JSONValue?) -> (tasks: JSONValue?, count: Int) {
        guard case .array(let tasks) = value else { return (value, 0) }
        let order = { (task: JSONValue) -> Int64 in
            if case .integer(let n)? = task.object?[TaskItem.Key.order.stringValue] { n } else { Int64.max }
        }
        let ranked = tasks.indices.sorted { (order(tasks[$0]), $0) < (order(tasks[$1]), $1) }
        var result = tasks
        for (rank, i) in ranked.enumerated() {
            guard var t = tasks[i].object else { continue }
            if t[TaskItem.Key.number] == nil { t[TaskItem.Key.number] = .integer(Int64(rank + 1)) }
            result[i] = .object(t)
        }
        return (.array(result), tasks.count)
    }

    private static func tasksFrom0(_ value: JSONValue?) -> JSONValue? {
        guard case .array(let tasks) = value else { return value }
        return .array(
            tasks.map { task -> JSONValue in
                guard var t = task.object else { return task }
                rename(&t, "snooze", to: TaskItem.Key.snoozedUntil)
                return .object(t)
            })
    }

    private static func rename(_ object: inout Object, _ old: String, to new: StoredKey) {
        if let value = object.removeValue(forKey: old), object[new] == nil { object[new] = value }
    }
}

extension Dictionary where Key == String {
    /// The member under a stored type's key.
    fileprivate subscript(key: StoredKey) -> Value? {
        get { self[key.stringValue] }
        set { self[key.stringValue] = newValue }
    }
}
