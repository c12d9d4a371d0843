import DBusKit
import Foundation
import TestSupport
import Testing

/// `petctl rest` (petprogress(7) §7, §3.1.1): marking, clearing and listing rest days, and every failure
/// as one line on stderr with its status and the marked days unchanged.
@Suite("petctl rest")
struct RestCommandTests {
    @Test("rest marks today or a range, --clear unmarks, --list lists; the daemon agrees")
    func markClearList() async throws {
        let world = try await World("ctl-rest")
        defer { world.close() }
        _ = try await world.daemon(now: "2026-03-02T10:00:00+01:00")
        let client = try world.client()

        #expect(
            try await world.petctlOK(["rest", "--list"]) == "No rest days marked. Mark one: petctl rest tomorrow\n")
        #expect(try await world.petctlOK(["rest"]) == "Rest day: Monday 2 March (today).\n")
        #expect(try client.entry().bool("rest_day") == true)
        #expect(
            try await world.petctlOK(["rest", "tomorrow", "2026-03-05"])
                == "Rest days: Tuesday 3 March to Thursday 5 March (3 days).\n")
        #expect(
            try await world.petctlOK(["rest", "--list"]) == """
                2026-03-02  Monday 2 March (today)
                2026-03-03  Tuesday 3 March
                2026-03-04  Wednesday 4 March
                2026-03-05  Thursday 5 March

                """)
        #expect(
            try await world.petctlOK(["rest", "--clear", "2026-03-04"]) == "No longer a rest day: Wednesday 4 March.\n")
        #expect(try await world.petctlOK(["rest", "--clear"]) == "No longer a rest day: Monday 2 March (today).\n")
        #expect(try client.restDays() == ["2026-03-03", "2026-03-05"])
        #expect(try client.entry().bool("rest_day") == false)
        #expect(
            try await world.petctlOK(["rest", "--clear", "today", "2026-03-31"])
                == "No longer rest days: Monday 2 March (today) to Tuesday 31 March (30 days).\n")
        #expect(try client.restDays() == [])
    }

    @Test("every failure: one line on stderr, the documented status, the rest days and the day unchanged")
    func failures() async throws {
        let world = try await World("ctl-rest-fail")
        defer { world.close() }
        let data = world.sandbox.path("data")
        let first = try await world.daemon(dataDirectory: data, now: "2026-03-01T10:00:00+01:00")
        #expect(await first.stop() == 0)
        _ = try await world.daemon(dataDirectory: data, now: "2026-03-02T10:00:00+01:00")
        let client = try world.client()
        try client.setRest("2026-03-10", "2026-03-12", true)
        let marked = try client.restDays()
        let mutations = try client.status().int("mutations")

        for (arguments, status, needle) in [
            (["rest", "bogus"], Int32(64), "today, tomorrow or a date YYYY-MM-DD"),
            (["rest", "today", "2026-02-30"], 64, "2026-02-30"),
            (["rest", "Today"], 64, "Today"),
            (["rest", "--list", "today"], 64, "--list"),
            (["rest", "--list", "--clear"], 64, "--list"),
            (["rest", "2026-03-12", "2026-03-10"], 1, "backwards"),
            (["rest", "2026-03-01"], 1, "in the past"),
            (["rest", "--clear", "2026-02-20", "2026-03-11"], 1, "in the past"),
            (["rest", "2027-03-03"], 1, "too far ahead"),
            (["rest", "today", "2027-03-03"], 1, "too far ahead"),
        ] {
            let result = try await world.petctl(arguments)
            #expect(result.status == status && result.output.isEmpty, "\(arguments): \(result)")
            let lines = result.errors.split(separator: "\n")
            #expect(
                lines.count == 1 && lines[0].hasPrefix("petctl: ") && lines[0].contains(needle),
                "\(arguments): \(result)")
            #expect(try client.restDays() == marked, "\(arguments) changed the rest days")
            #expect(try client.status().int("mutations") == mutations, "\(arguments) changed something")
        }
        // The last day that can be marked is 365 days after the open day.
        #expect(try await world.petctlOK(["rest", "2027-03-02"]) == "Rest day: Tuesday 2 March 2027.\n")
    }
}
