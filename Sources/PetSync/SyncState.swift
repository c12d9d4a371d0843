import PetCore

/// The fold's running value: what a device knows after folding a prefix of the total order.
/// Everything in it is a function of the operations folded and nothing else, so two devices that
/// hold the same operations hold equal states (`canonicalBytes`).
public struct SyncState: Hashable, Sendable {
    /// PetCore's world, driven by PetCore's own functions; nil before the first operation (the
    /// first day is the one that contains the first operation in the total order).
    public private(set) var world: PetWorld?
    /// Every closed day's record, in order: what history would hold.
    public private(set) var history: [DayRecord] = []
    /// Derived identities ⇄ the world's local ids (which PetCore draws from its counter, and which
    /// are themselves the same on every device that folded the same operations).
    public private(set) var localID: [TaskRef: String] = [:]
    public private(set) var ref: [String: TaskRef] = [:]
    /// Operations that the rules refused when folded in their place (a task another device deleted
    /// first, say): kept in the log, with no effect.
    public private(set) var refused: [OperationID] = []
    /// Operations folded (refused ones included).
    public private(set) var folded: Int = 0
    /// The first operation of a kind this version does not know: nothing after it is folded.
    public private(set) var blockedAt: OperationID?

    public init() {}

    /// The derived identity of a task or template the world knows by `localID`.
    public func ref(ofLocal id: String) -> TaskRef? { ref[id] }

    /// Folds one operation in, in its place: the day's closeouts due at its instant (PetCore's
    /// `catchUp`), then the change through PetCore's own function for it. Returns the rules'
    /// refusal, if any (the operation then changes nothing but the refused list).
    @discardableResult
    public mutating func fold(_ op: Operation, zone: Zone, stages: StageTable) -> PetError? {
        guard blockedAt == nil else { return nil }
        if case .unknown = op.change {
            blockedAt = op.id
            return nil
        }
        let ctx = Context(now: op.at, zone: zone, stages: stages)
        // Taken out of `self` while it changes, so that its arrays are changed in place, not copied.
        var w = world ?? PetWorld(now: op.at, zone: zone)
        world = nil
        defer { world = w }
        bindArrivals(after: w.catchUp(ctx).closeouts, in: w)
        folded += 1
        do throws(PetError) {
            try perform(op, on: &w, ctx)
        } catch {
            refused.append(op.id)
            return error
        }
        // A repeating task added for today brings today's instance.
        if case .add(_, _, _, let rule) = op.change, !rule.isEmpty { bindInstances(w.tasks) }
        return nil
    }

    /// The state as a device shows it at `now`: the due closeouts and the visible snapshot.
    public func at(_ now: Instant, zone: Zone, stages: StageTable) -> SyncState {
        var s = self
        var w = s.world ?? PetWorld(now: now, zone: zone)
        s.world = nil
        s.bindArrivals(after: w.catchUp(Context(now: now, zone: zone, stages: stages)).closeouts, in: w)
        s.world = w
        return s
    }

    private mutating func perform(_ op: Operation, on w: inout PetWorld, _ ctx: Context) throws(PetError) {
        switch op.change {
        case .wake, .seen, .forget, .unknown: return
        case .add(let title, let time, let day, let rule):
            let name: String
            if day == w.openDay.key {
                name = "today"
            } else if day == w.nextDay(zone: ctx.zone).key {
                name = "tomorrow"
            } else {
                throw PetError(.readOnlyDay, "\(day) is neither the open day nor the next one here.")
            }
            let id = try w.addTask(title: title, time: time, day: name, repeat: rule, ctx)
            bind(Refs.added(op.id), id)
        case .edit(let r, let title, let time): try w.updateTask(id: local(r), title: title, time: time, ctx)
        case .delete(let r): try w.deleteTask(id: local(r))
        case .done(let r): try w.markDone(id: local(r), ctx)
        case .undo(let r): try w.undo(id: local(r))
        case .snooze(let r): try w.snooze(id: local(r), ctx)
        case .rest(let from, let to, let on): try w.setRest(from: from.description, to: to.description, rest: on, ctx)
        case .resetTime(let t): try w.setResetTime(t)
        case .grace(let n): try w.setGraceMinutes(n)
        case .snoozeLength(let n): try w.setSnoozeMinutes(n)
        case .rollover(let on): w.setRollover(on)
        }
    }

    private func local(_ r: TaskRef) throws(PetError) -> String {
        guard let id = localID[r] else { throw PetError(.notFound, "No task or template is known as \(r).") }
        return id
    }

    private mutating func bind(_ r: TaskRef, _ id: String) {
        localID[r] = id
        ref[id] = r
    }

    /// Names what appeared without an operation of its own: recurring instances (by template and
    /// day) and rolled copies (by the task they copy and the day), and archives the closed days.
    /// PetCore adds a closing day's rolled copies to the next day in its undone one-offs' day
    /// order, after that day's instances, each with a fresh serial: they are the next day's
    /// one-offs that no operation named, in serial order.
    private mutating func bindArrivals(after closeouts: [Closeout], in w: PetWorld) {
        guard !closeouts.isEmpty else { return }
        for (k, closeout) in closeouts.enumerated() {
            guard let record = closeout.record else { continue }
            history.append(record)
            bindInstances(record.tasks)
            let next = k + 1 < closeouts.count ? (closeouts[k + 1].record?.tasks ?? []) : w.tasks
            bindInstances(next)
            let sources = record.tasks.filter { !$0.isDone && $0.templateID == nil }
            let copies = next.filter { $0.templateID == nil && ref[$0.id] == nil }.sorted { $0.order < $1.order }
            for (source, copy) in zip(sources, copies) {
                guard let from = ref[source.id] else { continue }
                bind(Refs.rolled(from: from, day: copy.dayKey), copy.id)
            }
        }
        bindInstances(w.tasks)
    }

    private mutating func bindInstances(_ tasks: [TaskItem]) {
        for task in tasks where ref[task.id] == nil {
            guard let t = task.templateID, let template = ref[t] else { continue }
            bind(Refs.instance(template: template, day: task.dayKey), task.id)
        }
    }

    /// The state as bytes, in one canonical order: equal bytes on two devices mean equal pets,
    /// days, tasks, settings, history records and identities.
    public var canonicalBytes: [UInt8] {
        var text = ""
        dump(world, to: &text)
        dump(history, to: &text)
        for (r, id) in localID.sorted(by: { $0.key < $1.key }) { text += "\(r)=\(id)\n" }
        text += "refused \(refused)\nfolded \(folded)\nblocked \(blockedAt ?? "-")\n"
        return Array(text.utf8)
    }
}
