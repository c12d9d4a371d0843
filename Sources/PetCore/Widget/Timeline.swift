/// The timeline (petprogress(7) §3.2): the next 24 ticks after now, each with the entry the widget would
/// show at that tick given the data as it stands.
public enum Timeline {
    public static let length = 24

    /// The entries. The pet part is the live pet now (no closeout is projected). The task part is
    /// the tick's day as known now: the open day's tasks for ticks before its end (including ticks
    /// before its start after a backward clock, since the open day stays open); for the next day,
    /// the tasks added for it plus the recurring instances it will get and, with rollover on, the
    /// copies the open day's undone one-offs would give; for any later day reached
    /// within 24 ticks (a short transition day), its recurring instances. None projected is done;
    /// a day marked as a rest day projects no instances.
    public static func entries(world: PetWorld, _ ctx: Context, iconPath: (Stage) -> String) -> [WidgetEntry] {
        let ticks = Ticks.next(length + 1, after: ctx.now, zone: ctx.zone)
        let pet = world.livePet(ctx.stages)
        var days = [(day: world.openDay, tasks: world.tasks)]
        var result: [WidgetEntry] = []
        for (tick, following) in zip(ticks, ticks.dropFirst()) {
            while let last = days.last, tick >= last.day.end {
                let day = DayCalendar.day(after: last.day, resetTime: world.settings.resetTime, zone: ctx.zone)
                let next = days.count == 1
                days.append(
                    next
                        ? (day, world.tomorrow + world.projectedArrivals(for: day, zone: ctx.zone))
                        : (day, world.projectedInstances(for: day, zone: ctx.zone)))
            }
            guard let current = days.last else { break }
            result.append(
                WidgetEntry(
                    date: tick, nextDate: following, pet: pet, dayKey: current.day.key, tasks: current.tasks,
                    restDay: world.isRestDay(current.day.key), at: tick, rule: world.dueRule(for: current.day),
                    zone: ctx.zone, stages: ctx.stages,
                    iconPath: iconPath))
        }
        return result
    }
}
