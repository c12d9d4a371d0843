import PetBus
import PetCore

/// One day of `petctl history`: its record, or that it has none, or that it is the open day —
/// and the pet at its end (for the open day: now), when known.
struct HistoryDay: Equatable {
    enum Kind: Equatable {
        case closed(HistoryRecord)
        /// No record: a day that ended before the daemon ran in it and held no tasks (nothing
        /// changed), or a day before the pet's first.
        case noRecord
        /// The open day so far.
        case today(done: Int, total: Int)
    }

    let key: CivilDate
    let kind: Kind
    let rest: Bool
    let pet: PetState?

    /// Tasks done and planned, when the day has a record or is today.
    var counts: (done: Int, total: Int)? {
        switch kind {
        case .closed(let r): (r.tasksDone, r.tasksTotal)
        case .noRecord: nil
        case .today(let done, let total): (done, total)
        }
    }

    /// Closed as an away day, or as the day the user came back (petprogress(7) §3.1).
    var away: Bool { record?.away ?? false }
    var returned: Bool { record?.returned ?? false }

    /// The day's record, when it has one.
    var record: HistoryRecord? {
        if case .closed(let r) = kind { return r }
        return nil
    }

    var isToday: Bool {
        if case .today = kind { return true }
        return false
    }

    /// The days from `first` to `today`, ascending. A day without a record changed nothing, so
    /// the pet at its end is the one the previous day ended with (`before`: the last record
    /// before `first`, nil when the pet's history starts later).
    static func days(
        from first: CivilDate, today: CivilDate, records: [HistoryRecord], before: PetState?, entry: WidgetEntry,
        live: PetView
    ) -> [HistoryDay] {
        let byKey = Dictionary(records.map { ($0.dayKey, $0) }, uniquingKeysWith: { $1 })
        var pet = before
        var days: [HistoryDay] = []
        for n in first.daysSinceEpoch...today.daysSinceEpoch {
            let key = CivilDate(daysSinceEpoch: n)
            if key == today {
                let now = PetState(stageIndex: live.stageIndex, stageXP: live.stageXP)
                days.append(
                    HistoryDay(
                        key: key, kind: .today(done: entry.tasksDone, total: entry.tasksTotal), rest: entry.restDay,
                        pet: now))
            } else if let record = byKey[key.description] {
                pet = PetState(stageIndex: record.stageIndexClose, stageXP: record.stageXPClose)
                days.append(HistoryDay(key: key, kind: .closed(record), rest: record.rest, pet: pet))
            } else {
                days.append(HistoryDay(key: key, kind: .noRecord, rest: false, pet: pet))
            }
        }
        return days
    }
}
