import DBusKit

/// Plans one client's next call from its model, with the reply the rules (petprogress(7)) predict.
///
/// Each client owns its tasks (titles `L<client>-<n>`, unique for the client's life), so its
/// predictions are exact whatever the other clients do. Times: `01:00` is on time for a completion
/// before 02:00 and every other time is late for one before 02:00 (grace 60 min); every effective
/// instant lies after the run's clock (which starts early in the day and stays before 01:00), so a
/// snooze counts from the effective instant.
struct Planner {
    /// The mix of calls a phase makes.
    enum Profile {
        /// Everything, rejected calls and property sets included (the load run).
        case mixed
        /// Everything but property sets, whose effect no single client can check (the crash run).
        case mixedWithoutProperties
        /// `GetWidgetEntry` only.
        case entries
        /// `ListTasks` only.
        case lists
        /// Changes predicted to succeed only.
        case mutations
    }

    static let onTime = "01:00"
    static let times = [onTime, "03:00", "07:30", "12:00", "18:45", "22:00"]
    /// At most this many tasks per client: 16 clients stay under the 200 tasks of a day (petprogress(7) §3).
    static let capacity = 10

    let prefix: String
    let frame: DayFrame
    var rng: SeededRandom
    private var counter = 0

    init(client: Int, frame: DayFrame, seed: UInt64) {
        prefix = "L\(client)-"
        self.frame = frame
        rng = SeededRandom(seed: seed &+ UInt64(bitPattern: Int64(client)) &* 0x1000_0001)
    }

    mutating func next(_ model: Model, _ profile: Profile) -> Step {
        // add, done, undo, snooze, edit, delete, entry, list, property, rejected
        let weights: [Int] =
            switch profile {
            case .mixed: [14, 14, 8, 8, 8, 8, 10, 12, 6, 12]
            case .mixedWithoutProperties: [14, 14, 8, 8, 8, 8, 10, 12, 0, 12]
            case .entries: [0, 0, 0, 0, 0, 0, 1, 0, 0, 0]
            case .lists: [0, 0, 0, 0, 0, 0, 0, 1, 0, 0]
            case .mutations: [14, 14, 8, 8, 8, 8, 0, 0, 0, 0]
            }
        let valid = profile == .mutations
        switch rng.pick(weights) {
        case 0: return add(model)
        case 1: return done(model, validOnly: valid)
        case 2: return undo(model, validOnly: valid)
        case 3: return snooze(model, validOnly: valid)
        case 4: return edit(model, validOnly: valid)
        case 5: return delete(model, validOnly: valid)
        case 6: return entry()
        case 7: return list(model)
        case 8: return property()
        default: return rejected(model)
        }
    }

    private mutating func freshTitle() -> String {
        counter += 1
        return "\(prefix)\(counter)"
    }

    private mutating func anyTime(except current: String? = nil) -> String {
        let choices = Self.times.filter { $0 != current }
        return choices[Int.random(in: 0..<choices.count, using: &rng)]
    }

    private mutating func pick(_ model: Model, _ filter: (ModelTask) -> Bool) -> ModelTask? {
        let candidates = model.tasks.filter(filter)
        return candidates.randomElement(using: &rng)
    }

    mutating func add(_ model: Model) -> Step {
        guard model.tasks.count < Self.capacity else {
            return delete(model, validOnly: true)
        }
        let title = freshTitle()
        let time = anyTime()
        var after = model
        after.tasks.append(ModelTask(id: "", title: title, time: time))
        let known = Set(model.tasks.map(\.id))
        var step = Step(
            kind: .mutation, call: Call(member: "AddTask", arguments: [.string(title), .string(time)]),
            expected: .reply { [frame] got in
                guard got.count == 1, let id = got[0].stringValue else { return "expected (s id), got \(got)" }
                guard id.hasPrefix(frame.idPrefix), !known.contains(id) else { return "unexpected id \(id)" }
                return nil
            }, after: after)
        step.addedTitle = title
        return step
    }

    mutating func done(_ model: Model, validOnly: Bool) -> Step {
        guard let task = pick(model, { validOnly ? !$0.done : true }) else { return add(model) }
        let call = Call(member: "MarkDone", arguments: [.string(task.id)])
        if task.done { return .rejected(call, Wire.error("AlreadyDone")) }
        // Judged against the scheduled time, never the snoozed one (petprogress(7) §3).
        let xp = task.time == Self.onTime ? 2 : 1
        let after = model.updating(task.id) {
            $0.done = true
            $0.xp = xp
        }
        return .mutation(call, reply: [.int32(Int32(xp))], after: after)
    }

    mutating func undo(_ model: Model, validOnly: Bool) -> Step {
        guard let task = pick(model, { validOnly ? $0.done : true }) else { return done(model, validOnly: validOnly) }
        let call = Call(member: "Undo", arguments: [.string(task.id)])
        if !task.done { return .rejected(call, Wire.error("NotDone")) }
        let after = model.updating(task.id) {
            $0.done = false
            $0.xp = 0
        }
        return .mutation(call, reply: [], after: after)
    }

    mutating func snooze(_ model: Model, validOnly: Bool) -> Step {
        let (frame, last) = (frame, frame.end - 60)
        guard let task = pick(model, { validOnly ? !$0.done && $0.effective(frame) < last : true }) else {
            return add(model)
        }
        let call = Call(member: "Snooze", arguments: [.string(task.id)])
        if task.done { return .rejected(call, Wire.error("AlreadyDone")) }
        // petprogress(7) §3: min(max(now, effective) + length, day end − 60 s); now is before every effective instant.
        let effective = task.effective(frame)
        let until = min(effective + PetRules.snoozeSeconds, last)
        if until <= effective { return .rejected(call, Wire.error("InvalidArgument")) }
        return .mutation(call, reply: [.int64(until)], after: model.updating(task.id) { $0.snoozedUntil = until })
    }

    mutating func edit(_ model: Model, validOnly: Bool) -> Step {
        let retime = Bool.random(using: &rng)
        guard let task = pick(model, { validOnly && retime ? !$0.done : true }) else { return add(model) }
        if !retime {
            let title = freshTitle()
            return .mutation(
                Call(member: "UpdateTask", arguments: [.string(task.id), .string(title), .string("")]), reply: [],
                after: model.updating(task.id) { $0.title = title })
        }
        let time = anyTime(except: task.time)
        let call = Call(member: "UpdateTask", arguments: [.string(task.id), .string(""), .string(time)])
        if task.done { return .rejected(call, Wire.error("AlreadyDone")) }
        // A time change clears the snooze (petprogress(7) §3).
        let after = model.updating(task.id) {
            $0.time = time
            $0.snoozedUntil = 0
        }
        return .mutation(call, reply: [], after: after)
    }

    mutating func delete(_ model: Model, validOnly: Bool) -> Step {
        guard let task = pick(model, { validOnly ? !$0.done : true }) else {
            // Every task done and the list full: free a slot through an undo.
            return model.tasks.count >= Self.capacity ? undo(model, validOnly: true) : add(model)
        }
        let call = Call(member: "DeleteTask", arguments: [.string(task.id)])
        if task.done { return .rejected(call, Wire.error("AlreadyDone")) }
        return .mutation(call, reply: [], after: model.removing(task.id))
    }

    func entry() -> Step {
        .read(Call(member: "GetWidgetEntry")) { [frame] got in
            guard got.count == 1, let entry = got[0].vardictValue else { return "expected (a{sv}), got \(got)" }
            return EntryCheck.problem(entry, frame)
        }
    }

    func list(_ model: Model) -> Step {
        .read(Call(member: "ListTasks", arguments: [.string("")])) { [prefix, frame] got in
            guard got.count == 1, let records = got[0].vardictArrayValue else { return "expected (aa{sv}), got \(got)" }
            return RecordCheck.problem(records.filter { RecordCheck.owned($0, prefix) }, model, frame)
        }
    }

    /// A property set: valid values (each counts as a change) or invalid ones (rejected). Only
    /// values that leave today's predictions alone: grace and snooze keep their defaults, and the
    /// reset time and rollover shape only later days.
    mutating func property() -> Step {
        let invalid = Wire.error("InvalidArgument")
        let ok: Step.Expected = .reply { $0.isEmpty ? nil : "expected (), got \($0)" }
        let hour = Int.random(in: 0..<24, using: &rng)
        let valid: [Call] = [
            .set("ResetTime", .string((hour < 10 ? "0" : "") + "\(hour):30")),
            .set("Rollover", .bool(Bool.random(using: &rng))),
            .set("GraceMinutes", .uint32(60)), .set("SnoozeMinutes", .uint32(15)), .set("GraceMinutes", .int32(60)),
        ]
        let bad: [Call] = [
            .set("ResetTime", .string("7:00")), .set("ResetTime", .string("24:00")), .set("GraceMinutes", .uint32(721)),
            .set("SnoozeMinutes", .uint32(0)), .set("GraceMinutes", .int32(-1)), .set("Rollover", .string("yes")),
        ]
        if Bool.random(using: &rng), let call = valid.randomElement(using: &rng) {
            return Step(kind: .mutation, call: call, expected: ok)
        }
        return .rejected(bad.randomElement(using: &rng) ?? bad[0], invalid)
    }

    /// A call the daemon must refuse, changing nothing.
    mutating func rejected(_ model: Model) -> Step {
        let invalid = Wire.error("InvalidArgument")
        let unknown = "\(frame.idPrefix)\(999_000 + Int.random(in: 0..<999, using: &rng))"
        let someID = model.tasks.randomElement(using: &rng)?.id
        let cases: [Step] = [
            .rejected(Call(member: "AddTask", arguments: [.string(freshTitle()), .string("24:00")]), invalid),
            .rejected(Call(member: "AddTask", arguments: [.string("   "), .string("09:00")]), invalid),
            .rejected(
                Call(member: "AddTask", arguments: [.string(freshTitle() + "\u{7}"), .string("09:00")]), invalid),
            .rejected(
                Call(member: "UpdateTask", arguments: [.string(someID ?? unknown), .string(""), .string("9:00")]),
                // petprogress(7) §6.1: NotFound is checked before InvalidArgument.
                someID == nil ? Wire.error("NotFound") : invalid),
            .rejected(Call(member: "MarkDone", arguments: [.string(unknown)]), Wire.error("NotFound")),
            .rejected(Call(member: "Snooze", arguments: [.string(unknown)]), Wire.error("NotFound")),
            .rejected(Call(member: "DeleteTask", arguments: [.string(unknown)]), Wire.error("NotFound")),
            .rejected(Call(member: "MarkDone", arguments: [.int32(7)]), "org.freedesktop.DBus.Error.InvalidArgs"),
        ]
        return cases[Int.random(in: 0..<cases.count, using: &rng)]
    }
}
