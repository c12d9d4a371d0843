import Foundation
import TestSupport
import Testing

/// `petctl simulate` (petprogress(7) §7): the rules offline — no bus at all — with rest days that lose
/// nothing (petprogress(7) §3.1.1), a chart of the pet, CSV forms, and a stage table to try.
@Suite("petctl simulate")
struct SimulateCommandTests {
    /// No session bus anywhere: simulate must not need one.
    static let noBus = ["DBUS_SESSION_BUS_ADDRESS": "unix:path=/nonexistent/bus", "XDG_RUNTIME_DIR": ""]

    @Test("a perfect user on one task a day for a week, with the weekend resting: exactly the expected table and chart")
    func aWeekByHand() async throws {
        let world = try await World("ctl-sim")
        defer { world.close() }
        let arguments = ["simulate", "--days", "7", "--tasks", "1", "--done-rate", "1", "--on-time-rate", "1"]
        // +2 and +3 a working day; +2 alone on days 6 and 7. Tadpole 5, Minnow 0, 5, 10, 15, 17, 19.
        let perDay = try await world.petctlOK(
            arguments + ["--rest-days-per-week", "2", "--per-day"], environment: Self.noBus)
        #expect(
            perDay == """
                day,rest,on_time,late,missed,xp_change,stage,stage_xp
                1,false,1,0,0,5,0,5
                2,false,1,0,0,5,1,0
                3,false,1,0,0,5,1,5
                4,false,1,0,0,5,1,10
                5,false,1,0,0,5,1,15
                6,true,1,0,0,2,1,17
                7,true,1,0,0,2,1,19

                """)
        // Without rest days the weekend earns its daily +3: Minnow 20 evolves on day 6, Frog 5 on day 7.
        let working = try await world.petctlOK(arguments + ["--per-day"], environment: Self.noBus)
        #expect(working.hasSuffix("6,false,1,0,0,5,2,0\n7,false,1,0,0,5,2,5\n"))

        let text = try await world.petctlOK(
            arguments + ["--rest-days-per-week", "2"], columns: 80, environment: Self.noBus)
        // Stages numbered from 1, as the summary counts them (and every screen); "1 task", not "1 tasks".
        let notReached = (2...19).map { i in
            let (name, threshold) = Self.stages[i]
            return "\(i + 1)\(String(repeating: " ", count: 5 - "\(i + 1)".count))  \(name.padding(12))  "
                + "\(threshold)\(String(repeating: " ", count: 9 - "\(threshold)".count))  not reached"
        }
        let expected =
            [
                // The run's sentence wraps at 80 columns, at a space.
                "Simulated 7 days, 1 task a day, done rate 1.0, on-time rate 1.0, 2 rest days a",
                "week, seed 1.",
                "stage  name          threshold  first day",
                "1      Tadpole       10         0",
                "2      Minnow        20         2",
            ] + notReached + [
                "After day 7: Minnow (stage 2 of 20), 19 XP.",
                "",
                "The pet at the end of each day",
                // Day 1 ends at Tadpole 5/10 (▅); then Minnow 0, 5, 10, 15, 17, 19 of 20.
                "Minnow     ▁▁▁▃▃▃▅▅▅▇▇▇▇▇▇███",
                "Tadpole ▅▅▅\(String(repeating: "█", count: 18))",
                "        day 1           day 7",
            ]
        #expect(text == expected.joined(separator: "\n") + "\n", "\n\(text)")
    }

    static let stages: [(String, Int)] = [
        ("Tadpole", 10), ("Minnow", 20), ("Frog", 30), ("Hermit Crab", 40), ("Starfish", 50), ("Jellyfish", 60),
        ("Squid", 75), ("Seahorse", 90), ("Dolphin", 110), ("Shark", 135), ("Otter", 165), ("Fox", 200),
        ("Lynx", 240), ("Wolf", 285), ("Bear", 335), ("Bison", 390), ("Elephant", 450), ("Rhino", 515),
        ("Lion", 585), ("Floating God", 0),
    ]

    /// One row of `--per-day`.
    struct Row: Equatable {
        let day: Int
        let rest: Bool
        let onTime, late, missed, xpChange, stage, stageXP: Int

        init?(_ line: Substring) {
            let f = line.split(separator: ",")
            guard f.count == 8, let day = Int(f[0]) else { return nil }
            let n = f[2...].compactMap { Int($0) }
            guard n.count == 6 else { return nil }
            (self.day, rest) = (day, f[1] == "true")
            (onTime, late, missed, xpChange, stage, stageXP) = (n[0], n[1], n[2], n[3], n[4], n[5])
        }
    }

    static func rows(_ csv: String) -> [Row] { csv.split(separator: "\n").dropFirst().compactMap(Row.init) }

    @Test(
        "--rest-days-per-week 2 differs from 0 as the rules say: the same user, weekends charge nothing and have no daily result, so the pet never drops on them"
    )
    func restDaysLoseNothing() async throws {
        let world = try await World("ctl-sim-rest")
        defer { world.close() }
        let base = [
            "simulate", "--days", "84", "--tasks", "5", "--done-rate", "0.5", "--on-time-rate", "0.8", "--seed", "7",
            "--per-day",
        ]
        let plain = Self.rows(try await world.petctlOK(base, environment: Self.noBus))
        let resting = Self.rows(
            try await world.petctlOK(base + ["--rest-days-per-week", "2"], environment: Self.noBus))
        #expect(plain.count == 84 && resting.count == 84)
        #expect(plain.map { [$0.onTime, $0.late, $0.missed] } == resting.map { [$0.onTime, $0.late, $0.missed] })
        let weekends: [Int] = (1...12).flatMap { (week: Int) -> [Int] in [7 * week - 1, 7 * week] }
        #expect(resting.filter(\.rest).map(\.day) == weekends)
        #expect(plain.allSatisfy { !$0.rest })
        var previous = (0, 0)
        for row in resting {
            let done = row.onTime + row.late
            let total = done + row.missed
            var daily = 0
            if total > 0, done * 10 >= total * 8 { daily = 3 }
            if total > 0, done * 10 < total * 4 { daily = -3 }
            if row.rest {
                #expect(row.xpChange == 2 * row.onTime + row.late, "day \(row.day)")
                #expect((row.stage, row.stageXP) >= previous, "day \(row.day) lost")
            } else {
                #expect(row.xpChange == 2 * row.onTime + row.late - 2 * row.missed + daily, "day \(row.day)")
            }
            previous = (row.stage, row.stageXP)
        }
        // At a 50 % done rate a weekend day is charged on average: resting is ahead after 12 weeks.
        let weekend = plain.filter { resting[$0.day - 1].rest }
        #expect(weekend.map(\.xpChange).reduce(0, +) < resting.filter(\.rest).map(\.xpChange).reduce(0, +))
        #expect(plain != resting)
    }

    /// docs/BALANCE.md proposes this table; it must stay valid and keep its promise.
    @Test("docs/stages-gentler.json is a valid table and brings an 80 % user to the final form within a year")
    func theProposedTable() async throws {
        let world = try await World("ctl-sim-gentle")
        defer { world.close() }
        let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("docs/stages-gentler.json").path
        let csv = try await world.petctlOK(
            [
                "simulate", "--days", "365", "--tasks", "5", "--done-rate", "0.8", "--on-time-rate", "0.8", "--stages",
                file, "--csv",
            ], environment: Self.noBus)
        let last = try #require(
            csv.split(separator: "\n").last?.split(separator: ",", omittingEmptySubsequences: false))
        #expect(last.count == 4 && last[1] == "Floating God" && last[2] == "0", "\(csv)")
        #expect(Int(last[3]).map { $0 <= 365 } == true, "\(csv)")
    }

    /// At 40 columns in French and German (the widest words): every line fits; the sentences wrap
    /// at spaces, never inside a word (joined again they are the whole sentence, and the French
    /// colon stays with its word); the table cuts names, never a number or a heading.
    @Test("at 40 columns in fr_FR and de_DE every line fits, sentences wrap at spaces, the table cuts names only")
    func narrowInFrenchAndGerman() async throws {
        let world = try await World("ctl-sim-narrow")
        defer { world.close() }
        let arguments = [
            "simulate", "--days", "30", "--tasks", "1", "--done-rate", "0.9", "--on-time-rate", "0.8",
            "--rest-days-per-week", "1", "--seed", "1",
        ]
        let expected: [(locale: String, summary: String, head: String, row: String, after: String)] = [
            (
                "fr_FR.UTF-8",
                "Simulation\u{A0}: 30 jours, 1 tâche par jour, taux de réalisation 0,9, taux de ponctualité 0,8, 1 jour de repos par semaine, graine 1.",
                "stade  nom", "4      Bernard-l'e…  40     ", "Après le jour 30\u{A0}:"
            ),
            (
                "de_DE.UTF-8",
                "Simuliert: 30 Tage, 1 Aufgabe am Tag, Erledigungsquote 0,9, Pünktlichkeitsquote 0,8, 1 Ruhetag pro Woche, Startwert 1.",
                "Stufe  Name", "4      Einsie…  40        ", "Nach Tag 30:"
            ),
        ]
        for (locale, summary, head, row, after) in expected {
            let text = try await world.petctlOK(
                arguments, columns: 40, environment: Self.noBus.merging(["LANG": locale, "LC_ALL": locale]) { $1 })
            let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            let wide = lines.filter { $0.count > 40 }
            #expect(wide.isEmpty, "\(locale): wider than 40 columns: \(wide)")
            let top = lines.prefix { !$0.hasPrefix(head) }
            #expect(top.joined(separator: " ") == summary, "\(locale):\n\(text)")
            #expect(lines.contains { $0.hasPrefix(row) }, "\(locale): the table cuts the name, keeps the numbers:\n\(text)")
            let end = lines.drop { !$0.hasPrefix(after) }.prefix { !$0.isEmpty }
            let xp = locale.hasPrefix("de") ? " EP." : " XP."
            #expect(!end.isEmpty && end.joined(separator: " ").hasSuffix(xp), "\(locale):\n\(text)")
        }
    }

    @Test("--csv, --stages with a table to try, and bad input: 64 with one line")
    func formsAndFailures() async throws {
        let world = try await World("ctl-sim-bad")
        defer { world.close() }
        let run = ["simulate", "--days", "3", "--tasks", "1", "--done-rate", "1", "--on-time-rate", "1"]
        let stages = world.sandbox.path("stages.json")
        try Data(
            #"{"stages":[{"i":0,"name":"Egg","threshold":4,"asset":"pet_egg.png"},{"i":1,"name":"Bird, small","threshold":0,"asset":"pet_bird.png"}]}"#
                .utf8
        ).write(to: URL(fileURLWithPath: stages))
        // Day 1: +2, +3 = 5 reaches 4 on the daily result: Bird on day 1.
        #expect(
            try await world.petctlOK(run + ["--stages", stages, "--csv"], environment: Self.noBus)
                == "stage,name,threshold,first_day\n0,Egg,4,0\n1,\"Bird, small\",0,1\n")

        let invalid = world.sandbox.path("bad.json")
        try Data(#"{"stages":[{"i":0,"name":"Egg","threshold":4,"asset":"pet_egg.png"}]}"#.utf8)
            .write(to: URL(fileURLWithPath: invalid))
        let refused: [([String], String)] = [
            (run + ["--done-rate", "1.5"], "--done-rate"),
            (run + ["--rest-days-per-week", "8"], "--rest-days-per-week"),
            (["simulate", "--days", "0", "--tasks", "1", "--done-rate", "1", "--on-time-rate", "1"], "--days"),
            (["simulate", "--days", "3"], "--tasks"),
            (run + ["--csv", "--per-day"], "--per-day"),
            (run + ["--stages", world.sandbox.path("none.json")], "cannot be read"),
            (run + ["--stages", invalid], "at least 2 stages"),
        ]
        for (arguments, needle) in refused {
            let result = try await world.petctl(arguments, environment: Self.noBus)
            #expect(result.status == 64 && result.output.isEmpty, "\(arguments): \(result)")
            let lines = result.errors.split(separator: "\n")
            #expect(lines.count == 1 && lines[0].hasPrefix("petctl: ") && lines[0].contains(needle), "\(result)")
        }
    }
}

extension String {
    /// Left-aligned in `width` characters (test side).
    fileprivate func padding(_ width: Int) -> String { self + String(repeating: " ", count: max(0, width - count)) }
}
