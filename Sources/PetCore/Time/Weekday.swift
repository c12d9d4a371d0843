/// A day of the week, Monday first, spelled `mon`…`sun` in repeat rules.
public enum Weekday: Int, CaseIterable, Sendable, Comparable {
    case monday = 1
    case tuesday, wednesday, thursday, friday, saturday, sunday

    /// The lowercase three-letter name used by repeat rules.
    public var shortName: String {
        ["mon", "tue", "wed", "thu", "fri", "sat", "sun"][rawValue - 1]
    }

    public init?(shortName: String) {
        guard let day = Weekday.allCases.first(where: { $0.shortName == shortName }) else { return nil }
        self = day
    }

    public static func < (a: Weekday, b: Weekday) -> Bool { a.rawValue < b.rawValue }
}
