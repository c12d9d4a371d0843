import PetCore
import Testing

@testable import petctl

/// `petctl done`'s word for a completion from the task as read just before it was marked: the
/// day's list is read only where that record cannot settle it (a snooze moved its due time).
@Suite struct DoneJudgementTests {
    static func pending(due: Bool, snoozedUntil: Instant = 0) -> TaskRecord {
        TaskRecord(
            id: "20260302-1", title: "Review", time: "13:00", effectiveTime: "13:00", dayKey: "2026-03-02",
            done: false, completedAt: 0, completedSeq: 0, snoozedUntil: snoozedUntil, scheduledAt: 1_772_452_800,
            overdue: false, isNext: true, xp: 0, repeatRule: "", templateID: "", due: due)
    }

    @Test func settledByThePendingRecord() throws {
        var listed = 0
        let list = { () -> String? in
            listed += 1
            return "never"
        }
        #expect(try Done.judgement(xp: 2, pending: Self.pending(due: false), listed: list) == "on time")
        #expect(try Done.judgement(xp: 1, pending: Self.pending(due: true), listed: list) == "late")
        #expect(try Done.judgement(xp: 1, pending: Self.pending(due: false), listed: list) == "early")
        #expect(
            try Done.judgement(xp: 1, pending: Self.pending(due: true, snoozedUntil: 1_772_453_700), listed: list)
                == "late")
        #expect(listed == 0)
    }

    @Test func aSnoozeOrNoRecordAsksTheList() throws {
        let snoozed = Self.pending(due: false, snoozedUntil: 1_772_453_700)
        #expect(try Done.judgement(xp: 1, pending: snoozed, listed: { "late" }) == "late")
        #expect(try Done.judgement(xp: 1, pending: nil, listed: { "early" }) == "early")
        #expect(try Done.judgement(xp: 1, pending: nil, listed: { nil }) == "late")
    }
}
