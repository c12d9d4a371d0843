import DBusKit
import Foundation
import TestSupport
import Testing

/// Ticks are local tops of the hour (petprogress(7) §3.2), computed with the calendar: in 45- and 30-minute
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
        Case(
            zone: "Asia/Kathmandu", start: "2026-03-02T08:50:00+05:45",
            ticks: ["2026-03-02T09:00:00+05:45", "2026-03-02T10:00:00+05:45", "2026-03-02T11:00:00+05:45"],
            note: "+05:45"),
        Case(
            zone: "Europe/Berlin", start: "2026-03-29T00:50:00+01:00",
            ticks: ["2026-03-29T01:00:00+01:00", "2026-03-29T03:00:00+02:00", "2026-03-29T04:00:00+02:00"],
            note: "spring forward: no 02:00"),
        Case(
            zone: "Europe/Berlin", start: "2026-10-25T01:50:00+02:00",
            ticks: ["2026-10-25T02:00:00+02:00", "2026-10-25T02:00:00+01:00", "2026-10-25T03:00:00+01:00"],
            note: "fall back: 02:00 twice"),
        Case(
            zone: "Australia/Lord_Howe", start: "2026-04-05T00:50:00+11:00",
            ticks: ["2026-04-05T01:00:00+11:00", "2026-04-05T02:00:00+10:30", "2026-04-05T03:00:00+10:30"],
            note: "half-hour DST end"),
        Case(
            zone: "Australia/Lord_Howe", start: "2026-10-04T00:50:00+10:30",
            ticks: ["2026-10-04T01:00:00+10:30", "2026-10-04T03:00:00+11:00", "2026-10-04T04:00:00+11:00"],
            note: "half-hour DST start: no 02:00"),
    ]

    @Test("EntryChanged exactly once per local top of the hour", arguments: cases)
    func ticks(_ testCase: Case) async throws {
        let world = try await World("tz")
        defer { world.close() }
        let recorder = try SignalRecorder(bus: world.bus)
        defer { recorder.stop() }
        _ = try await world.daemon(now: testCase.start, timeScale: 1200, zone: testCase.zone)
        let expected = testCase.ticks.map(unix)
        let got = await recorder.wait(timeout: .seconds(40)) {
            $0.filter { $0.member == "EntryChanged" }.count >= expected.count
        }
        #expect(got, "\(recorder.count("EntryChanged")) ticks seen")
        let entries = recorder.signals("EntryChanged").map(\.entry)
        let dates = entries.compactMap { $0.int("date") }
        #expect(Array(dates.prefix(expected.count)) == expected)
        #expect(Set(dates).count == dates.count, "never twice for one tick")
        for (entry, next) in zip(entries, expected.dropFirst()) {
            #expect(entry.int("next_date") == next, "next_date is the following tick")
        }
    }

    /// The first `count` local tops of the hour after `now` in `zone`, found by stepping 15 minutes
    /// (every offset in tzdata since 1970 is a multiple of 15 minutes) with Foundation's calendar.
    static func expectedTicks(after now: Int64, zone: String, count: Int) -> [Int64] {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: zone)!
        var ticks: [Int64] = []
        var t = now - now % 900 + 900
        while ticks.count < count {
            let minute = calendar.component(.minute, from: Date(timeIntervalSince1970: TimeInterval(t)))
            if minute == 0 { ticks.append(t) }
            t += 900
        }
        return ticks
    }

    static let timelineCases: [(String, String)] = [
        ("Europe/Berlin", "2026-10-24T23:30:00+02:00"), ("Europe/Berlin", "2026-03-28T23:30:00+01:00"),
        ("Asia/Kathmandu", "2026-03-02T08:50:00+05:45"), ("Asia/Kolkata", "2026-03-02T08:50:00+05:30"),
        ("Australia/Lord_Howe", "2026-04-04T20:10:00+11:00"), ("Australia/Lord_Howe", "2026-10-03T20:10:00+10:30"),
        ("Pacific/Chatham", "2026-04-04T20:10:00+13:45"), ("America/St_Johns", "2026-11-01T00:10:00-02:30"),
        ("America/New_York", "2026-03-08T00:10:00-05:00"), ("UTC", "2026-12-31T23:10:00Z"),
    ]

    @Test(
        "GetTimeline lists the next 24 local tops of the hour, whatever the offset or DST change",
        arguments: timelineCases)
    func timeline(_ zone: String, _ start: String) async throws {
        let world = try await World("timeline")
        defer { world.close() }
        _ = try await world.daemon(now: start, zone: zone)
        let client = try world.client()
        let timeline = try #require(try client.call("GetTimeline").first?.vardictArrayValue)
        let dates = timeline.compactMap { $0.int("date") }
        #expect(dates == Self.expectedTicks(after: unix(start), zone: zone, count: 24))
        #expect(timeline.dropLast().map { $0.int("next_date") } == dates.dropFirst().map { Optional($0) })
        let entry = try client.entry()
        #expect(entry.int("next_date") == dates.first, "the entry's next_date is the timeline's first tick")
    }
}
