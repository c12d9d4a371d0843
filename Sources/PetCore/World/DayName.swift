/// A day as a request names it (petprogress(7) §6.1): `"today"` is the open day, `"tomorrow"` the next one,
/// and anything else must be a day key `YYYY-MM-DD`. `AddTaskFor`, `ListTasks` and `SetRest` all
/// read their day through it.
public enum DayName: Hashable, Sendable {
    case today, tomorrow
    case key(DayKey)

    /// The day `text` names, or nil when it names none. `""` is today only where the member says so
    /// (`AddTaskFor`, `ListTasks`); `SetRest` wants a name.
    public init?(_ text: String, emptyIsToday: Bool) {
        switch text {
        case "today": self = .today
        case "" where emptyIsToday: self = .today
        case "tomorrow": self = .tomorrow
        default:
            guard let key = CivilDate(parsing: text) else { return nil }
            self = .key(key)
        }
    }
}

extension PetWorld {
    /// The key of the day `name` names: the open day's, the next day's as projected in `zone`, or
    /// the key itself.
    public func key(of name: DayName, zone: Zone) -> DayKey {
        switch name {
        case .today: openDay.key
        case .tomorrow: nextDay(zone: zone).key
        case .key(let key): key
        }
    }
}
