/// How a closed day with tasks stood towards the user's presence (petprogress(7) §3.1, "Away days").
public enum Presence: String, Hashable, Sendable, CaseIterable {
    /// Judged as usual (or as a rest day when marked); also every day without tasks.
    case present
    /// Untouched after an untouched day: no missed events, no daily result.
    case away
    /// Touched after an untouched day: judged as a rest day.
    case returned = "return"
}
