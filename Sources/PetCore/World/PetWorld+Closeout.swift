/// The daily closeout (petprogress(7) §3.1) and catch-up over several ended days.
extension PetWorld {
    /// Whether the open day has ended at `ctx.now`, so `closeDueDays` has a day to close.
    public func closeoutDue(_ ctx: Context) -> Bool { ctx.now >= openDay.end }

    /// Whether more than one day has ended by `ctx.now`: a catch-up that first keeps the state as
    /// it was (`state-before-<open day>.json`, petprogress(7) §3.1).
    public func catchUpSpansDays(_ ctx: Context) -> Bool {
        closeoutDue(ctx) && ctx.now >= nextDay(zone: ctx.zone).end
    }

    /// Closes every day that has ended by `ctx.now`, in order, and opens the day containing now.
    /// Each day closes exactly once: a day that has not ended is never closed, so calling this
    /// again changes nothing. Each day opened gets its recurring instances and rolled copies, as
    /// it would have had them had the daemon run in it.
    /// At most `limit` days are closed (a catch-up in bounded steps, petprogress(7) §3.1): then
    /// `closeoutDue` tells whether more are due.
    public mutating func closeDueDays(_ ctx: Context, limit: Int = .max) -> [Closeout] {
        var closeouts: [Closeout] = []
        while closeoutDue(ctx), closeouts.count < limit {
            let (closeout, missed) = closeOpenDay(ctx)
            closeouts.append(closeout)
            seedOpenDay(rolled: settings.rollover ? missed.filter { $0.templateID == nil } : [], zone: ctx.zone)
        }
        return closeouts
    }

    /// Steps 1–3 for the open day, then opens the next one with the tasks added for it. A rest, an
    /// away or a return day skips steps 1 and 2 (petprogress(7) §3.1, §3.1.1); its undone tasks
    /// are still returned, for rollover.
    private mutating func closeOpenDay(_ ctx: Context) -> (Closeout, missed: [TaskItem]) {
        let ordered = tasks.inDayOrder()
        let missed = ordered.filter { !$0.isDone }
        let done = ordered.count - missed.count
        let rest = openDayIsRest
        let presence = closingPresence(hasTasks: !ordered.isEmpty)
        let result = PetEvent.dailyResult(done: done, total: ordered.count)
        var events: [PetEvent] = []
        if !rest, presence == .present {
            events = missed.map { _ in .missed }
            if !ordered.isEmpty { events.append(result) }
        }
        let petBefore = livePet(ctx.stages)
        let petAfter = Engine.apply(events, to: petBefore, table: ctx.stages)

        let neutral = ordered.isEmpty && !openDayLive
        let record =
            neutral
            ? nil
            : DayRecord(
                day: openDay, tasks: ordered, done: done, total: ordered.count,
                rate: ordered.isEmpty ? 0 : Double(done) / Double(ordered.count),
                petAtOpen: openingPet, petAtClose: petAfter,
                xpChange: ordered.reduce(0) { $0 + $1.xp } + events.reduce(0) { $0 + $1.xp }, rest: rest,
                resultXP: events.contains(result) ? result.xp : 0, presence: presence)
        let closeout = Closeout(day: openDay, record: record, petAfter: petAfter)

        lastClosedDay = openDay.key
        lookBack(afterClosing: !ordered.isEmpty)
        pruneRestDays(through: openDay.key)
        openingPet = petAfter
        let next = nextDay(zone: ctx.zone)
        openDay = next
        openDayLive = next.contains(ctx.now)
        tasks = tomorrow.map { task in
            var t = task
            t.dayKey = next.key
            t.scheduled = Self.placeLeniently(t.time, in: next, zone: ctx.zone)
            return t
        }
        tomorrow = []
        // Tasks added in advance keep the numbers they were shown with; the day's own follow.
        lastNumber = lastTomorrowNumber
        lastTomorrowNumber = 0
        _ = recordMutation()
        return (closeout, missed)
    }

    /// Step 4 for a newly opened day: its recurring instances (none on a rest day), then the
    /// rolled copies.
    private mutating func seedOpenDay(rolled: [TaskItem], zone: Zone) {
        let day = openDay
        for template in instantiatedTemplates(on: day.key) {
            guard tasks.count < Self.maxTasksPerDay else { return }
            tasks.append(
                instance(
                    of: template, in: day, at: Self.placeLeniently(template.time, in: day, zone: zone),
                    number: takeNumber()))
        }
        for old in rolled {
            guard tasks.count < Self.maxTasksPerDay else { return }
            let n = takeSerial()
            tasks.append(
                rolledCopy(of: old, in: day, zone: zone, order: n, number: takeNumber()))
        }
    }

    /// A fresh copy of an undone task for `day`: same title and time, not done, not snoozed.
    private func rolledCopy(of old: TaskItem, in day: Day, zone: Zone, order: UInt64, number: Int) -> TaskItem {
        TaskItem(
            id: "\(day.key.digits)-\(order)", title: old.title, time: old.time, dayKey: day.key,
            scheduled: Self.placeLeniently(old.time, in: day, zone: zone), order: order, number: number)
    }

    /// The tasks the next day would get when it opens, after those added for it (for the
    /// timeline's projection and `petctl tomorrow`): its recurring instances (none for a day
    /// marked as a rest day), then, with rollover on, copies of the open day's undone one-offs;
    /// numbered after the tasks added for it, as they will be.
    public func projectedArrivals(for day: Day, zone: Zone) -> [TaskItem] {
        var copy = self
        copy.lastNumber = lastTomorrowNumber
        let rolled = settings.rollover ? tasks.inDayOrder().filter { !$0.isDone && $0.templateID == nil } : []
        let arrivals =
            projectedInstances(for: day, zone: zone, into: &copy)
            + rolled.map {
                copy.rolledCopy(of: $0, in: day, zone: zone, order: copy.takeSerial(), number: copy.takeNumber())
            }
        return Array(arrivals.prefix(max(0, Self.maxTasksPerDay - tomorrow.count)))
    }

    /// The recurring instances a day would get when it opens (for the timeline's projection):
    /// none for a day marked as a rest day.
    public func projectedInstances(for day: Day, zone: Zone) -> [TaskItem] {
        var copy = self
        copy.lastNumber = 0
        return projectedInstances(for: day, zone: zone, into: &copy)
    }

    private func projectedInstances(for day: Day, zone: Zone, into copy: inout PetWorld) -> [TaskItem] {
        instantiatedTemplates(on: day.key).map {
            copy.instance(
                of: $0, in: day, at: Self.placeLeniently($0.time, in: day, zone: zone), number: copy.takeNumber())
        }
    }

    /// The templates that make an instance on the day keyed `key` when it opens, in creation order.
    private func instantiatedTemplates(on key: DayKey) -> [Template] {
        guard !isRestDay(key) else { return [] }
        return templates.sorted { $0.order < $1.order }.filter { $0.applies(to: key) }
    }
}
