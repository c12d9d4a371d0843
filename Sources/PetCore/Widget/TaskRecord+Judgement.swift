extension TaskRecord {
    /// How a done task was judged (petprogress(7) §3): `on time` within the grace window, else
    /// `early` (done before its scheduled instant) or `late`. The award says which side of the
    /// window; the instants say which side of the time.
    public var judgement: String {
        xp >= 2 ? "on time" : completedAt < scheduledAt ? "early" : "late"
    }
}
