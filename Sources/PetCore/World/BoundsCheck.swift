/// The one check of a world's and a history record's values against the store's bounds
/// (petprogress(7) §5, "The same bounds on every write"): the loader runs it on what it read, the
/// store before it writes, and the daemon on every change before it is adopted, so the daemon never
/// writes what its own loader would refuse.
public struct BoundsProblem: Error, Hashable, Sendable, CustomStringConvertible {
    /// What kind of value left its bounds: a date (a day after 9999-12-31, an instant outside the
    /// years 1970–9999), which a request can cause (`InvalidArgument`), or an internal counter or
    /// limit (`StorageFailure`, naming the bound).
    public enum Kind: Hashable, Sendable {
        case date
        case counter
    }

    public let kind: Kind
    /// Which value, e.g. `serial` or `tasks[3].scheduled`.
    public let field: String
    /// What is wrong, naming the bound.
    public let problem: String

    public init(_ kind: Kind, _ field: String, _ problem: String) {
        self.kind = kind
        self.field = field
        self.problem = problem
    }

    public var description: String { "\(field): \(problem)" }
}

/// The checks, field by field; each returns the first problem found.
enum BoundsCheck {
    static func count(_ value: some BinaryInteger, _ field: @autoclosure () -> String) -> BoundsProblem? {
        guard Int64(exactly: value).map(Bounds.count.contains) ?? false else {
            return BoundsProblem(.counter, field(), "\(value) is past the bound of a counter (0…2147483647)")
        }
        return nil
    }

    static func xpChange(_ value: Int, _ field: @autoclosure () -> String) -> BoundsProblem? {
        guard Bounds.xpChange.contains(Int64(value)) else {
            return BoundsProblem(.counter, field(), "\(value) is past the bound of an XP change (±2147483647)")
        }
        return nil
    }

    static func instant(_ value: Instant?, _ field: @autoclosure () -> String) -> BoundsProblem? {
        guard let value, !Bounds.instant.contains(value) else { return nil }
        return BoundsProblem(.date, field(), "\(value) is not an instant in the years 1970–9999")
    }

    static func day(_ key: DayKey?, _ field: @autoclosure () -> String) -> BoundsProblem? {
        guard let key, !(1...9999).contains(key.year) else { return nil }
        return BoundsProblem(.date, field(), "a day after 9999-12-31 (or before year 1) cannot be kept")
    }

    static func day(_ day: Day, _ field: String) -> BoundsProblem? {
        if let p = self.day(day.key, field + ".key") { return p }
        if let p = instant(day.start, field + ".start") { return p }
        // A day's end is the instant just after it: 10000-01-01T00:00:00Z is not an instant the
        // store keeps, so the last day that can be kept ends by 9999-12-31T23:59:59Z.
        if let p = instant(day.end, field + ".end") { return p }
        guard day.end > day.start else { return BoundsProblem(.date, field, "the day ends before it starts") }
        return nil
    }

    static func pet(_ pet: PetState, _ field: String) -> BoundsProblem? {
        count(pet.stageIndex, field + ".stageIndex") ?? count(pet.stageXP, field + ".stageXP")
    }

    static func limit(_ n: Int, _ limit: Int, _ field: String) -> BoundsProblem? {
        n > limit ? BoundsProblem(.counter, field, "it would hold \(n) entries; the limit is \(limit)") : nil
    }

    static func task(_ t: TaskItem, _ field: @autoclosure () -> String) -> BoundsProblem? {
        if let p = count(t.order, field() + ".order") { return p }
        if let p = count(t.completedSeq, field() + ".completedSeq") { return p }
        if let p = count(t.xp, field() + ".xp") { return p }
        if t.number < 1 || t.number > Int(Bounds.count.upperBound) {
            return BoundsProblem(.counter, field() + ".number", "\(t.number) is not a task number (1…2147483647)")
        }
        if let p = day(t.dayKey, field() + ".dayKey") { return p }
        return instant(t.scheduled, field() + ".scheduled") ?? instant(t.completedAt, field() + ".completedAt")
            ?? instant(t.snoozedUntil, field() + ".snoozedUntil")
    }

    static func tasks(_ tasks: [TaskItem], _ field: String) -> BoundsProblem? {
        if let p = limit(tasks.count, PetWorld.maxTasksPerDay, field) { return p }
        for (i, t) in tasks.enumerated() { if let p = task(t, "\(field)[\(i)]") { return p } }
        return nil
    }
}

extension PetWorld {
    /// The first value of this world outside the store's bounds, nil when every value is within.
    public func boundsProblem() -> BoundsProblem? {
        typealias C = BoundsCheck
        if let p = C.count(mutations, "mutations") ?? C.count(serial, "serial") ?? C.count(lastNumber, "lastNumber")
            ?? C.count(lastTomorrowNumber, "lastTomorrowNumber")
        {
            return p
        }
        if let p = C.pet(openingPet, "openingPet") ?? C.day(openDay, "openDay") ?? C.day(lastClosedDay, "lastClosedDay") {
            return p
        }
        if let snapshot, let p = C.instant(snapshot.tick, "snapshot.tick") ?? C.pet(snapshot.pet, "snapshot.pet") {
            return p
        }
        if let p = C.tasks(tasks, "tasks") ?? C.tasks(tomorrow, "tomorrow") {
            return p
        }
        if let p = C.limit(templates.count, Self.maxTemplates, "templates") { return p }
        for (i, t) in templates.enumerated() {
            if let p = C.count(t.order, "templates[\(i)].order") ?? C.day(t.firstDay, "templates[\(i)].firstDay") {
                return p
            }
        }
        for (i, key) in restDays.enumerated() { if let p = C.day(key, "restDays[\(i)]") { return p } }
        for (i, key) in touchedDays.enumerated() { if let p = C.day(key, "touchedDays[\(i)]") { return p } }
        return nil
    }
}

extension DayRecord {
    /// The first value of this record outside the store's bounds, nil when every value is within:
    /// at most a day's tasks, its counts agreeing with them (`total` their number, `done` the done
    /// ones, `rate` their ratio), its pets, XP and day within the bounds.
    public func boundsProblem() -> BoundsProblem? {
        typealias C = BoundsCheck
        if let p = C.day(day, "day") ?? C.tasks(tasks, "tasks") { return p }
        if let p = C.pet(petAtOpen, "petAtOpen") ?? C.pet(petAtClose, "petAtClose") { return p }
        if let p = C.xpChange(xpChange, "xpChange") ?? C.xpChange(resultXP, "resultXP") { return p }
        if total != tasks.count {
            return BoundsProblem(.counter, "total", "\(total) disagrees with the \(tasks.count) tasks it holds")
        }
        let doneTasks = tasks.lazy.filter(\.isDone).count
        if done != doneTasks {
            return BoundsProblem(.counter, "done", "\(done) disagrees with the \(doneTasks) done tasks it holds")
        }
        let ratio = total == 0 ? 0 : Double(done) / Double(total)
        if !(abs(rate - ratio) <= 1e-9) {
            return BoundsProblem(.counter, "rate", "\(rate) is not its \(done) of \(total) tasks done")
        }
        return nil
    }
}
