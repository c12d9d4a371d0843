/// Away days (petprogress(7) §3.1): which days an accepted change aimed at, and how a closing day
/// is judged from that and from the last earlier day that had tasks.
extension PetWorld {
    /// Whether an accepted change has aimed at the day keyed `key`.
    public func isTouched(_ key: DayKey) -> Bool { touchedDays.contains(key) }

    /// Records that an accepted change aimed at the day keyed `key`.
    mutating func touch(_ key: DayKey) {
        guard let i = touchedDays.firstIndex(where: { $0 >= key }) else { return touchedDays.append(key) }
        if touchedDays[i] != key { touchedDays.insert(key, at: i) }
    }

    /// Records a change aimed at every day of `keys` (a rest mark or unmark of a range).
    mutating func touch(_ keys: [DayKey]) {
        touchedDays = Array(Set(touchedDays + keys)).sorted()
    }

    /// How the open day is judged at its closeout. A day without tasks is neither away nor a
    /// return day, and does not move the look-back.
    func closingPresence(hasTasks: Bool) -> Presence {
        guard hasTasks, !lookBackTouched else { return .present }
        return isTouched(openDay.key) ? .returned : .away
    }

    /// After the open day closed: it becomes the look-back day when it had tasks; its key and
    /// earlier ones leave the touched set.
    mutating func lookBack(afterClosing hasTasks: Bool) {
        if hasTasks { lookBackTouched = isTouched(openDay.key) }
        touchedDays.removeAll { $0 <= openDay.key }
    }
}
