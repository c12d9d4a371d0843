/// The world's presentations: the widget entry, the timeline, the pet keys and task lists, ready
/// as typed values (PetBus spells them on the bus).
extension PetWorld {
    /// The entry to show now (`GetWidgetEntry`, the `WidgetEntry` property, `EntryChanged`): the
    /// pet part from the visible snapshot, the task part live from the open day. Run `catchUp`
    /// first; without a stored snapshot the live pet at the latest tick stands in.
    public func widgetEntry(_ ctx: Context, iconPath: (Stage) -> String = { _ in "" }) -> WidgetEntry {
        let shown =
            snapshot
            ?? VisibleSnapshot(
                tick: Ticks.latest(atOrBefore: ctx.now, zone: ctx.zone), pet: livePet(ctx.stages))
        return WidgetEntry(
            date: shown.tick, nextDate: Ticks.next(after: shown.tick, zone: ctx.zone), pet: shown.pet,
            dayKey: openDay.key, tasks: tasks, restDay: openDayIsRest, at: ctx.now, rule: openDayRule, zone: ctx.zone,
            stages: ctx.stages,
            iconPath: iconPath)
    }

    /// The next 24 tick entries (`GetTimeline`).
    public func timeline(_ ctx: Context, iconPath: (Stage) -> String = { _ in "" }) -> [WidgetEntry] {
        Timeline.entries(world: self, ctx, iconPath: iconPath)
    }

    /// The pet keys for the live pet (`GetPet`).
    public func petView(_ ctx: Context, iconPath: (Stage) -> String = { _ in "" }) -> PetView {
        PetView(livePet(ctx.stages), stages: ctx.stages, iconPath: iconPath)
    }

    /// The open day's task records (`ListTasks("")`), with `is_next`, `due` and `overdue` read now.
    public func openDayRecords(_ ctx: Context) -> [TaskRecord] {
        TaskRecord.list(tasks, reading: .live(at: ctx.now, rule: openDayRule), zone: ctx.zone)
    }

    /// The records of the tasks added for the next day (`ListTasks("tomorrow")`): no projected
    /// instances, `is_next`, `due` and `overdue` false, `due_at` and `overdue_at` as things stand.
    public func tomorrowRecords(_ ctx: Context) -> [TaskRecord] {
        TaskRecord.list(tomorrow, reading: .planned(rule: dueRule(for: nextDay(zone: ctx.zone))), zone: ctx.zone)
    }

    /// What makes a task of the open day due and overdue: the grace in force and the day's end.
    public var openDayRule: DueRule { dueRule(for: openDay) }

    /// The due rule for a task of `day`.
    public func dueRule(for day: Day) -> DueRule { DueRule(graceMinutes: settings.graceMinutes, dayEnd: day.end) }
}
