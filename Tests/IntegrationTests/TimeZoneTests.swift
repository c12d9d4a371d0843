import DBusKit
import Foundation
import Testing

/// Ticks are local tops of the hour (SPEC §3.2), computed with the calendar: in 45- and 30-minute
/// offsets, across DST gaps (a skipped hour) and folds (a repeated hour gives two ticks), each
/// tick is emitted exactly once, with the entry's `date`/`next_date` on it. Run on the simulated
/// clock at 1200× (an hour in 3 real seconds).
@Suite("Time zones")
struct TimeZoneTests {
    struct Case: Sendable, CustomStringConvertible {
        let zone: String
        let start: String
        /// The first ticks after `start`, as instants with their local offsets.
        let ticks: [String]
        let note: String
        var description: String { "\(zone) \(note)" }
    }

    static let cases: [Case] = [
        Case(zone: "Asia/Kathmandu", start: "2026-03-02T08:50:00+05:45",
             ticks: ["2026-03-02T09:00:00+05:45", "2026-03-02T10:00:00+05:45", "2026-03-02T11:00:00+05:45"], note: "+05:45"),
        Case(zone: "Europe/Berlin", start: "2026-03-29T00:50:00+01:00",
             ticks: ["2026-03-29T01:00:00+01:00", "2026-03-29T03:00:00+02:00", "2026-03-29T04:00:00+02:00"], note: "spring forward: no 02:00"),
        Case(zone: "Europe/Berlin", start: "2026-10-25T01:50:00+02:00",
             ticks: ["2026-10-25T02:00:00+02:00", "2026-10-25T02:00:00+01:00", "2026-10-25T03:00:00+01:00"], note: "fall back: 02:00 twice"),
        Case(zone: "Australia/Lord_Howe", start: "2026-04-05T00:50:00+11:00",
             ticks: ["2026-04-05T01:00:00+11:00", "2026-04-05T02:00:00+10:30", "2026-04-05T03:00:00+10:30"], note: "half-hour DST end"),
        Case(zone: "Australia/Lord_Howe", start: "2026-10-04T00:50:00+10:30",
             ticks: ["2026-10-04T01:00:00+10:30", "2026-10-04T03:00:00+11:00", "2026-10-04T04:00:00+11:00"], note: "half-hour DST start: no 02:00"),
    ]

    @Test("EntryChanged exactly once per local top of the hour", arguments: cases)
    func ticks(_ testCase: Case) async throws {
        let world = try await World("tz")
        defer { world.close() }
        let recorder = try SignalRecorder(bus: world.bus)
        defer { recorder.stop() }
        _ = try await world.daemon(now: testCase.start, timeScale: 1200, zone: testCase.zone)
        let expected = testCase.ticks.map(unix)
        let got = await recorder.wait(timeout: .seconds(40)) { $0.filter { $0.member == "EntryChanged" }.count >= expected.count }
        #expect(got, "\(recorder.count("EntryChanged")) ticks seen")
        let entries = recorder.signals("EntryChanged").map(\.entry)
        let dates = entries.compactMap { $0.int("date") }
        #expect(Array(dates.prefix(expected.count)) == expected)
        #expect(Set(dates).count == dates.count, "never twice for one tick")
        for (entry, next) in zip(entries, expected.dropFirst()) {
            #expect(entry.int("next_date") == next, "next_date is the following tick")
        }
    }
}
