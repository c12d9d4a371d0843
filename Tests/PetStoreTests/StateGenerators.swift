@testable import PetCore
@testable import PetStore

/// Seeded generators of whole states for the writer's tests (PetCore's SplitMix64, as the loader
/// fuzz uses): hostile titles, extreme numbers, empty and full collections. They set fields
/// directly, past PetCore's validation, since the writer must spell whatever a state can hold.
struct StateGen {
    var rng: SplitMix64

    init(seed: UInt64) { rng = SplitMix64(seed: seed) }

    /// Pieces titles are made of: JSON's escapes, control characters, separators JavaScript
    /// treats as line ends, emoji (with joiners and flags), combining marks, slashes.
    static let pieces: [String] = [
        "\"", "\\", "/", "\\\"", "\u{0}", "\u{1}", "\u{8}", "\u{9}", "\u{A}", "\u{B}", "\u{C}", "\u{D}",
        "\u{1B}", "\u{1F}", "\u{7F}", "\u{80}", "\u{9F}", "\u{A0}", "\u{2028}", "\u{2029}", "\u{FEFF}",
        "\u{FFFD}", "\u{FFFF}", "🐸", "👩‍👩‍👧", "🇩🇪", "e\u{301}", "\u{301}", "Zoë", "日本語", "</script>", " ", "{", "}",
        "[", "]", ":", ",", "null", "1e5", "a", "Water the plants",
    ]

    mutating func int(_ range: ClosedRange<Int>) -> Int { Int.random(in: range, using: &rng) }
    mutating func bool() -> Bool { Bool.random(using: &rng) }
    mutating func pick<T>(_ values: [T]) -> T { values[int(0...values.count - 1)] }
    mutating func maybe<T>(_ make: (inout StateGen) -> T) -> T? { bool() ? make(&self) : nil }

    /// Any Unicode scalar but a surrogate.
    mutating func scalar() -> String {
        let range = pick([0...0x7F, 0x80...0xD7FF, 0xE000...0x10FFFF] as [ClosedRange<UInt32>])
        return String(Character(UnicodeScalar(UInt32.random(in: range, using: &rng))!))
    }

    /// A title of up to 40 pieces or scalars; one in ten is over 1 KiB.
    mutating func title() -> String {
        var text = ""
        for _ in 0..<int(0...40) { text += bool() ? pick(Self.pieces) : scalar() }
        if int(0...9) == 0 { text += String(repeating: pick(Self.pieces) + "x", count: 1100) }
        return text
    }

    mutating func integer() -> Int {
        switch int(0...2) {
        case 0: int(-5...5)
        case 1: Int(truncatingIfNeeded: rng.next())
        default: pick([Int.min, Int.max, 0, -1])
        }
    }

    mutating func instant() -> Int64 {
        switch int(0...2) {
        case 0: Int64.random(in: 1_700_000_000...1_900_000_000, using: &rng)
        case 1: Int64(bitPattern: rng.next())
        default: pick([Int64.min, Int64.max, 0, -1])
        }
    }

    mutating func unsigned() -> UInt64 {
        switch int(0...2) {
        case 0: UInt64(int(0...1000))
        case 1: rng.next()
        default: pick([UInt64.max, 0])
        }
    }

    mutating func date() -> CivilDate { CivilDate(year: int(1...9999), month: int(1...12), day: int(1...28))! }
    mutating func time() -> WallTime { WallTime(hour: int(0...23), minute: int(0...59))! }
    mutating func rule() -> Repeat {
        switch int(0...2) {
        case 0: .daily
        case 1: .weekdays
        default: .days(Weekday.allCases.filter { _ in bool() }.ifEmpty([.sunday]))
        }
    }
    mutating func pet() -> PetState { PetState(stageIndex: integer(), stageXP: integer()) }
    mutating func day() -> Day { Day(key: date(), start: instant(), end: instant()) }

    mutating func task() -> TaskItem {
        var t = TaskItem(
            id: title(), title: title(), time: time(), dayKey: date(), scheduled: instant(), order: unsigned(),
            templateID: maybe { $0.title() }, repeatRule: maybe { $0.rule() })
        t.completedAt = maybe { $0.instant() }
        t.completedSeq = unsigned()
        t.xp = integer()
        t.snoozedUntil = maybe { $0.instant() }
        t.number = integer()
        return t
    }

    /// None, a few, or a full day's (200).
    mutating func tasks() -> [TaskItem] {
        let count = pick([0, int(1...5), PetWorld.maxTasksPerDay])
        return (0..<count).map { _ in task() }
    }

    mutating func world() -> PetWorld {
        var w = PetWorld(now: 1_772_406_000, zone: .utc)
        w.settings.resetTime = time()
        w.settings.graceMinutes = integer()
        w.settings.snoozeMinutes = integer()
        w.settings.rollover = bool()
        w.openingPet = pet()
        w.openDay = day()
        w.openDayLive = bool()
        w.tasks = tasks()
        w.tomorrow = tasks()
        w.templates = (0..<int(0...3)).map { _ in
            Template(id: title(), title: title(), time: time(), repeatRule: rule(), firstDay: date(), order: unsigned())
        }
        w.restDays = (0..<int(0...6)).map { _ in date() }
        w.touchedDays = (0..<int(0...6)).map { _ in date() }
        w.lookBackTouched = bool()
        w.lastClosedDay = maybe { $0.date() }
        w.mutations = unsigned()
        w.serial = unsigned()
        w.snapshot = maybe { VisibleSnapshot(tick: $0.instant(), pet: $0.pet()) }
        w.lastNumber = integer()
        w.lastTomorrowNumber = integer()
        return w
    }

    /// History's tail as a save records it: its last day never after the world's last closed day.
    mutating func tail(for world: PetWorld) -> HistoryTail? {
        guard let closed = world.lastClosedDay else { return nil }
        return HistoryTail(year: int(1970...2100), length: instant(), lastDay: bool() ? closed : nil)
    }

    mutating func double() -> Double {
        switch int(0...2) {
        case 0: Double.random(in: -1...1, using: &rng)
        case 1: Double(bitPattern: rng.next()).finiteOr(0.25)
        default:
            pick([
                0, -0.0, 0.1, 100, 1.0 / 3, 1e16, 1e-7, .leastNonzeroMagnitude, 1.7976931348623157e308, -2.5e-300,
                123_456_789.5,
            ])
        }
    }

    mutating func record() -> DayRecord {
        DayRecord(
            day: day(), tasks: tasks(), done: integer(), total: integer(), rate: double(), petAtOpen: pet(),
            petAtClose: pet(), xpChange: integer(), rest: bool(), resultXP: integer(),
            presence: Presence.allCases[int(0...2)])
    }

    /// Any JSON document up to `depth` levels deep, keys as hostile as titles (the migrations' `JSONValue`).
    mutating func json(depth: Int = 3) -> JSONValue {
        switch depth == 0 ? int(0...4) : int(0...6) {
        case 0: return .null
        case 1: return .bool(bool())
        case 2: return .integer(instant())
        case 3: return .number(double())
        case 4: return .string(title())
        case 5: return .array((0..<int(0...4)).map { _ in json(depth: depth - 1) })
        default:
            var members: [String: JSONValue] = [:]
            for _ in 0..<int(0...5) { members[title()] = json(depth: depth - 1) }
            return .object(members)
        }
    }
}

extension Double {
    fileprivate func finiteOr(_ other: Double) -> Double { isFinite ? self : other }
}

extension Array {
    fileprivate func ifEmpty(_ other: [Element]) -> [Element] { isEmpty ? other : self }
}

/// A generated state brought within the bounds every file is checked with on load
/// (petprogress(7) §5), keeping as much of its hostility as they allow: the extremes of each range,
/// titles of any scalars but control characters, ids and counters as PetCore makes them.
enum WithinBounds {
    static func count(_ value: some BinaryInteger) -> Int64 {
        Int64(clamping: value).clamped(Bounds.count)
    }
    static func instant(_ value: Instant) -> Instant { value.clamped(Bounds.instant) }
    static func pet(_ p: PetState) -> PetState {
        PetState(stageIndex: Int(count(p.stageIndex)), stageXP: Int(count(p.stageXP)))
    }
    static func day(_ d: Day) -> Day {
        let start = min(instant(d.start), Bounds.instant.upperBound - 1)
        return Day(key: d.key, start: start, end: max(instant(d.end), start + 1))
    }
    static func title(_ text: String) -> String {
        let kept = String(
            String.UnicodeScalarView(text.unicodeScalars.filter { $0.properties.generalCategory != .control }))
        let trimmed = String(String.UnicodeScalarView(kept.trimmingWhitespace.unicodeScalars.prefix(200)))
        return trimmed.trimmingWhitespace.isEmpty ? "x" : trimmed
    }
    static func task(_ t: TaskItem) -> TaskItem {
        let order = UInt64(max(1, count(t.order)))
        var b = TaskItem(
            id: "\(t.dayKey.digits)-\(order)", title: title(t.title), time: t.time, dayKey: t.dayKey,
            scheduled: instant(t.scheduled), order: order,
            templateID: t.templateID.map { _ in "t-\(max(1, count(t.order)))" }, repeatRule: t.repeatRule)
        b.completedAt = t.completedAt.map(instant)
        b.completedSeq = UInt64(count(t.completedSeq))
        b.xp = Int(count(t.xp))
        b.snoozedUntil = t.snoozedUntil.map(instant)
        b.number = Int(max(1, count(t.number)))
        return b
    }

    /// A day's tasks numbered 1, 2, 3… (each number once), and a last number no lower.
    static func numbered(_ tasks: [TaskItem], last: Int) -> ([TaskItem], Int) {
        let numbered = tasks.enumerated().map { i, t in
            var b = task(t)
            b.number = i + 1
            return b
        }
        return (numbered, max(Int(count(last)), tasks.count))
    }
    static func world(_ w: PetWorld) -> PetWorld {
        var b = w
        b.settings.graceMinutes = w.settings.graceMinutes.clamped(Settings.graceRange)
        b.settings.snoozeMinutes = w.settings.snoozeMinutes.clamped(Settings.snoozeRange)
        b.openingPet = pet(w.openingPet)
        b.openDay = day(w.openDay)
        (b.tasks, b.lastNumber) = numbered(w.tasks, last: w.lastNumber)
        (b.tomorrow, b.lastTomorrowNumber) = numbered(w.tomorrow, last: w.lastTomorrowNumber)
        b.templates = w.templates.map {
            let order = UInt64(max(1, count($0.order)))
            return Template(
                id: "t-\(order)", title: title($0.title), time: $0.time, repeatRule: $0.repeatRule,
                firstDay: $0.firstDay, order: order)
        }
        b.restDays = Array(Set(w.restDays)).sorted()
        b.touchedDays = Array(Set(w.touchedDays)).sorted()
        b.mutations = UInt64(count(w.mutations))
        let orders = (b.tasks + b.tomorrow).map(\.order) + b.templates.map(\.order)
        b.serial = max(UInt64(count(w.serial)), orders.max() ?? 0)
        b.snapshot = w.snapshot.map { VisibleSnapshot(tick: instant($0.tick), pet: pet($0.pet)) }
        return b
    }
    /// Counts agree with the tasks, which are at most a day's (petprogress(7) §5).
    static func record(_ r: DayRecord) -> DayRecord {
        let tasks = r.tasks.prefix(PetWorld.maxTasksPerDay).map(task)
        let done = tasks.filter(\.isDone).count
        return DayRecord(
            day: day(r.day), tasks: tasks, done: done, total: tasks.count,
            rate: tasks.isEmpty ? 0 : Double(done) / Double(tasks.count), petAtOpen: pet(r.petAtOpen),
            petAtClose: pet(r.petAtClose),
            xpChange: Int(Int64(r.xpChange).clamped(Bounds.xpChange)), rest: r.rest,
            resultXP: Int(Int64(r.resultXP).clamped(Bounds.xpChange)))
    }
}

extension Comparable {
    fileprivate func clamped(_ range: ClosedRange<Self>) -> Self { min(max(self, range.lowerBound), range.upperBound) }
}
