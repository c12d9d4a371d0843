import Foundation
import TestSupport
import Testing

/// One local clock format everywhere a person reads a time (issue 38.4): under en_US.UTF-8 the add
/// and edit confirmations, a snoozed row, the timeline (its columns steady), the panel's line and
/// tooltip and `settings reset-time`'s note are on a 12-hour clock; what goes on the bus, the
/// "Bring it back" command and the machine formats keep `HH:MM`. C and de_DE keep 24-hour times.
@Suite("a 12-hour locale all the way")
struct TwelveHourTests {
    static let american = ["LANG": "en_US.UTF-8", "LC_ALL": "en_US.UTF-8"]

    @Test func everyTimeAPersonReadsIsOnTheLocalesClock() async throws {
        let world = try await World("twelve-hour")
        defer { world.close() }
        _ = try await world.daemon(now: "2026-03-02T13:10:00+01:00")
        let us = Self.american
        #expect(try await world.petctlOK(["add", "2:30pm", "Write"], environment: us) == "Added 1: 2:30 PM Write (today).\n")
        #expect(try await world.petctlOK(["add", "18:00", "Cook"]) == "Added 2: 18:00 Cook (today).\n")
        #expect(
            try await world.petctlOK(["edit", "2", "--time", "7pm"], environment: us) == "Updated 2: 7:00 PM Cook.\n")
        let de = try await world.petctlOK(
            ["add", "9:00", "Lesen", "--tomorrow"], environment: ["LANG": "de_DE.UTF-8", "LC_ALL": "de_DE.UTF-8"])
        #expect(de.contains("09:00"), "\(de)")
        let removed = try await world.petctlOK(["rm", "+1"], environment: us)
        #expect(removed.contains("Deleted +1: 9:00 AM Lesen.") && removed.contains("petctl add 09:00 Lesen --tomorrow"), "\(removed)")

        // Snoozed: the row's note in 12-hour time too.
        _ = try await world.petctlOK(["snooze", "1"], environment: us)
        let today = try await world.petctlOK(["today", "--plain"], columns: 80, environment: us)
        #expect(today.contains(/snoozed to \d{1,2}:\d\d (AM|PM)/), "\(today)")
        #expect(!today.contains(/snoozed to \d\d:\d\d[^ ]/), "\(today)")

        // The timeline: every row's columns where the first row's are, and the next task in 12-hour time.
        let timeline = try await world.petctlOK(["timeline"], columns: 80, environment: us).split(separator: "\n")
        let starts = Set(timeline.map { line in line.firstRange(of: "  🫧")?.lowerBound.utf16Offset(in: line) ?? -1 })
        #expect(starts.count == 1 && !starts.contains(-1), "\(timeline)")
        #expect(timeline.first?.contains(/\d:\d\d PM Write/) == true, "\(timeline)")

        // The panel's line and tooltip.
        let waybar = try await world.petctlOK(["widget", "--format", "waybar"], environment: us)
        #expect(waybar.contains(/\d:\d\d PM Write/) && !waybar.contains(/1[0-9]:\d\d Write/), "\(waybar)")
        let json = try await world.petctlOK(["widget", "--format", "json"], environment: us)
        #expect(json.contains(/"1[0-9]:\d\d"/), "machine format keeps HH:MM: \(json)")

        // reset-time typed like any time, its note on the locale's clock.
        let reset = try await world.petctlOK(["settings", "reset-time", "4am"], environment: us)
        #expect(reset == "reset-time 04:00\nToday still ends at 12:00 AM; the days after end at 4:00 AM.\n", "\(reset)")
    }
}
