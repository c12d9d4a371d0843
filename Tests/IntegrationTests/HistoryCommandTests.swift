import Foundation
import TestSupport
import Testing

/// `petctl history` (petprogress(7) §7) over a month lived through the real daemon (`ScriptedMonth`), and
/// `petctl export` of the same month: the expected screens are written out by hand here.
@Suite("petctl history and export")
struct HistoryCommandTests {
    /// `n` full blocks.
    static func full(_ n: Int) -> String { String(repeating: "█", count: n) }
    static func spaces(_ n: Int) -> String { String(repeating: " ", count: n) }

    /// The 28 days from Tuesday 3 February to Monday 2 March. Week totals count every task of
    /// the week's closed days in range (rest days' too, not today's, not an away day's); the closed days' totals:
    /// 41 of 64 done. The pet (built-in table): Minnow 12 on the 3rd … Frog from the 9th,
    /// Hermit Crab from the 19th (4 on-time completions reach 30, the miss falls back to Frog
    /// 27, the daily +3 evolves again), 21 on 1 March and 23 now. Bars: one eighth per 1/8 of a
    /// stage, two columns a day.
    static let at80 = """
        Last 28 days, 3 Feb to 2 Mar
                Mon Tue Wed Thu Fri Sat Sun
         2 Feb      ███ ▒▒▒ ░░░ ▓▓▓  z   ·   8 of 14 done
         9 Feb  ███ ███  -  ▓▓▓ ███  z   z   11 of 14 done
        16 Feb  ▒▒▒ ░░░ ███ ▓▓▓ ███  ·   ·   9 of 14 done
        23 Feb  ▓▓▓ ███ ░░░ ░░░ ███ ▓▓▓ ▒▒▒  13 of 22 done
         2 Mar  [▒]
        Closed days: 41 of 64 tasks done (64 %), 3 rest days, 3 days without a record.
        ███ all done  ▓▓▓ 80 % or more  ▒▒▒ 40–79 %  ░░░ under 40 %  z rest day
        ~ away day  ^ return day  - no tasks  · no record  [ ] today

        The pet at the end of each day
        Hermit Crab \(spaces(32))▁▁▂▂▂▂▂▂▄▄▅▅▃▃▂▂▃▃▅▅▅▅▅▅
        Frog        \(spaces(12))▁▁▂▂▂▂▄▄▆▆▆▆▇▇▇▇▅▅▆▆\(full(24))
        Minnow      ▅▅▅▅▂▂▅▅▆▆▆▆\(full(44))
                    3 Feb\(spaces(46))today

        """

    /// The same at 40 columns: no week totals, the totals and legend wrapped, a day a column.
    static let at40 = """
        Last 28 days, 3 Feb to 2 Mar
                Mon Tue Wed Thu Fri Sat Sun
         2 Feb      ███ ▒▒▒ ░░░ ▓▓▓  z   ·
         9 Feb  ███ ███  -  ▓▓▓ ███  z   z
        16 Feb  ▒▒▒ ░░░ ███ ▓▓▓ ███  ·   ·
        23 Feb  ▓▓▓ ███ ░░░ ░░░ ███ ▓▓▓ ▒▒▒
         2 Mar  [▒]
        Closed days: 41 of 64 tasks done (64 %),
        3 rest days, 3 days without a record.
        ███ all done  ▓▓▓ 80 % or more
        ▒▒▒ 40–79 %  ░░░ under 40 %  z rest day
        ~ away day  ^ return day  - no tasks
        · no record  [ ] today

        The pet at the end of each day
        Hermit C… \(spaces(16))▁▂▂▂▄▅▃▂▃▅▅▅
        Frog      \(spaces(6))▁▂▂▄▆▆▇▇▅▆\(full(12))
        Minnow    ▅▅▂▅▆▆\(full(22))
                  3 Feb\(spaces(18))today

        """

    @Test("history at 80 and 40 columns, and --plain, for a scripted month; export holds every archived day")
    func aScriptedMonth() async throws {
        let world = try await World("ctl-history")
        defer { world.close() }
        let data = world.sandbox.path("data")
        _ = try await ScriptedMonth.live(world, data: data)

        let wide = try await world.petctlOK(["history"], columns: 80)
        #expect(wide == Self.at80, "\n\(wide)")
        let narrow = try await world.petctlOK(["history"], columns: 40)
        #expect(narrow == Self.at40, "\n\(narrow)")

        let plain = try await world.petctlOK(["history", "--plain", "--days", "9"])
        #expect(
            plain == """
                2026-02-22 Sunday: no record; Hermit Crab 7/40.
                2026-02-23 Monday: 4 of 5 done (80 %), +9 XP; Hermit Crab 16/40.
                2026-02-24 Tuesday: 2 of 2 done (100 %), +7 XP; Hermit Crab 23/40.
                2026-02-25 Wednesday: 0 of 3 done (0 %), −9 XP; Hermit Crab 14/40.
                2026-02-26 Thursday: 0 of 3 done (0 %), −9 XP; Hermit Crab 5/40.
                2026-02-27 Friday: 2 of 2 done (100 %), +7 XP; Hermit Crab 12/40.
                2026-02-28 Saturday: 4 of 5 done (80 %), +9 XP; Hermit Crab 21/40.
                2026-03-01 Sunday: 1 of 2 done (50 %), ±0 XP; Hermit Crab 21/40.
                2026-03-02 Monday: today, 1 of 2 done so far; Hermit Crab 23/40 now.

                """, "\n\(plain)")
        let week = try await world.petctlOK(["history", "--plain", "--days", "3"])
        #expect(week.split(separator: "\n").map { $0.prefix(10) } == ["2026-02-28", "2026-03-01", "2026-03-02"])

        try await exportChecks(world)
    }

    @Test("a new pet: history starts at the first day of use, today, a rest day without tasks")
    func aNewPet() async throws {
        let world = try await World("ctl-history-new")
        defer { world.close() }
        _ = try await world.daemon(now: "2026-03-02T10:00:00+01:00")
        _ = try await world.petctlOK(["rest"])
        let screen = try await world.petctlOK(["history"], columns: 80)
        #expect(
            screen == """
                Today, 2 Mar
                        Mon Tue Wed Thu Fri Sat Sun
                 2 Mar  [z]
                No day has closed yet.
                ███ all done  ▓▓▓ 80 % or more  ▒▒▒ 40–79 %  ░░░ under 40 %  z rest day
                ~ away day  ^ return day  - no tasks  · no record  [ ] today

                The pet at the end of each day
                Tadpole ▁▁▁
                        2 Mar

                """, "\n\(screen)")
        #expect(
            try await world.petctlOK(["history", "--plain", "--days", "2"]) == """
                2026-03-02 Monday: today, a rest day, no tasks yet; Tadpole 0/10 now.

                """)
    }

    /// `export` of the month: 26 archived days (29 closed, 3 without a record) and their 71 tasks.
    func exportChecks(_ world: World) async throws {
        let recorded = ScriptedMonth.days.indices.filter { ScriptedMonth.days[$0] != .off }.map(ScriptedMonth.key)
        #expect(recorded.count == 26)

        let json = try await world.petctlOK(["export"])
        let document = try #require(
            try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any], "export is one JSON object")
        #expect(document["format"] as? String == "petprogress-export" && document["schema"] as? Int == 2)
        let history = try #require(document["history"] as? [[String: Any]])
        #expect(history.compactMap { $0["day_key"] as? String } == recorded, "every archived day, once, in order")
        let taskCounts: [Int] = history.map { ($0["tasks"] as? [Any])?.count ?? -1 }
        #expect(taskCounts.reduce(0, +) == 71)
        let rest = history.filter { $0["rest"] as? Bool == true }.compactMap { $0["day_key"] as? String }
        #expect(rest == ["2026-02-07", "2026-02-14", "2026-02-15"])
        let today = try #require(document["today"] as? [String: Any])
        #expect(today["day_key"] as? String == "2026-03-02" && (today["tasks"] as? [Any])?.count == 2)
        #expect((document["pet"] as? [String: Any])?["stage_name"] as? String == "Hermit Crab")
        #expect((document["settings"] as? [String: Any])?["grace_minutes"] as? Int == 60)
        #expect(document["rest_days"] as? [String] == [])

        // CSV through Python's csv module: one row per archived task, RFC 4180.
        let csvFile = world.sandbox.path("tasks.csv")
        let wrote = try await world.petctlOK(["export", "--format", "csv", "--output", csvFile])
        #expect(wrote == "Exported 26 closed days (71 tasks) to \(csvFile).\n")
        let script = """
            import csv, collections, sys
            rows = list(csv.DictReader(open(sys.argv[1], newline='', encoding='utf-8'), strict=True))
            print(len(rows), len({r['day_key'] for r in rows}))
            print(sorted(collections.Counter(r['outcome'] for r in rows).items()))
            first = rows[0]['completed_at']
            print(rows[0]['day_key'], rows[0]['title'], first[:16] + first[19:])
            """
        let parsed = try await world.sandbox.run("/usr/bin/python3", ["-c", script, csvFile])
        // 71 tasks on 25 days (the empty day has none). On time: 8 full days × 2, 6 high × 4,
        // 3 middle and 3 rest days × 1 = 46; missed: 6 high × 1, 3 middle × 1, 4 low × 3 = 21.
        #expect(
            parsed.output == """
                71 25
                [('early', 1), ('missed', 21), ('not_done_rest', 3), ('on_time', 46)]
                2026-02-01 Task 1 2026-02-01T09:00+01:00

                """, "\(parsed)")
        var info = stat()
        #expect(stat(csvFile, &info) == 0 && info.st_mode & 0o777 == 0o600)
    }

    /// A daily task; Monday touched, then nothing until Friday: Tuesday is judged (the day you
    /// leave costs that day), Wednesday and Thursday are away days, Friday (a task done) the
    /// return day. History marks them apart, counts none of the away days' tasks, and the CSV
    /// says `not_done_away`, never `missed`, for them.
    @Test("away and return days: their own cells and legend, left out of the totals, and the CSV says so")
    func awayDays() async throws {
        let world = try await World("history-away")
        defer { world.close() }
        let data = world.sandbox.path("data")
        let monday = try await world.daemon(dataDirectory: data, now: "2026-03-02T08:00:00+01:00")
        _ = try world.client().addTaskFor("Water", "09:00", day: "today", repeat: "daily")
        #expect(await monday.stop() == 0)
        let friday = try await world.daemon(dataDirectory: data, now: "2026-03-06T08:00:00+01:00")
        let c = try world.client()
        _ = try c.markDone(try #require(try c.tasks().first?.string("id")))
        #expect(await friday.stop() == 0)
        _ = try await world.daemon(dataDirectory: data, now: "2026-03-07T08:00:00+01:00")

        for columns in [80, 40] {
            let screen = try await world.petctlOK(["history", "--days", "6"], columns: columns)
            #expect(screen.contains(" ~   ~   ^ "), "\(columns):\n\(screen)")
            #expect(screen.contains("~ away day") && screen.contains("^ return day"), "\(columns):\n\(screen)")
            #expect(!screen.contains("0 of 5"), "\(columns):\n\(screen)")
        }
        let wide = try await world.petctlOK(["history", "--days", "6"], columns: 80)
        #expect(wide.contains("1 of 3 done"), "a week's total leaves out the away days:\n\(wide)")
        #expect(wide.contains("2 away days, 1 return day"), "\n\(wide)")

        let path = world.sandbox.path("away.csv")
        _ = try await world.petctlOK(["export", "--format", "csv", "--output", path])
        let rows = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\r\n")
        for day in ["2026-03-04", "2026-03-05"] {
            let row = try #require(rows.first { $0.hasPrefix(day + ",") }, "\(rows)")
            #expect(row.contains(",not_done_away,") && !row.contains("missed"), "\(row)")
        }
        #expect(try #require(rows.first { $0.hasPrefix("2026-03-03,") }).contains(",missed,"))
    }
}
