/// How a template repeats (petprogress(7) §3): `daily`, `weekdays` (Mon–Fri), or chosen weekdays.
public enum Repeat: Hashable, Sendable, CustomStringConvertible {
    case daily
    case weekdays
    case days([Weekday])  // ascending, no duplicates

    /// Parses `daily`, `weekdays` or a comma list of `mon`…`sun` without duplicates; `""` is nil
    /// (a one-off task).
    public static func parse(_ text: String) throws(PetError) -> Repeat? {
        switch text {
        case "": return nil
        case "daily": return .daily
        case "weekdays": return .weekdays
        default:
            let names = text.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            let days = names.compactMap(Weekday.init(shortName:))
            guard days.count == names.count else {
                throw PetError(
                    .invalidArgument,
                    "The repeat must be daily, weekdays, or a comma list of mon,tue,wed,thu,fri,sat,sun, not \(quoted(text))."
                )
            }
            guard Set(days).count == days.count else {
                throw PetError(.invalidArgument, "The repeat \(quoted(text)) names a weekday twice.")
            }
            return .days(days.sorted())
        }
    }

    /// Whether a day whose key falls on `weekday` gets an instance.
    public func matches(_ weekday: Weekday) -> Bool {
        switch self {
        case .daily: return true
        case .weekdays: return weekday.rawValue <= 5
        case .days(let days): return days.contains(weekday)
        }
    }

    public var description: String {
        switch self {
        case .daily: return "daily"
        case .weekdays: return "weekdays"
        case .days(let days): return days.map(\.shortName).joined(separator: ",")
        }
    }
}
