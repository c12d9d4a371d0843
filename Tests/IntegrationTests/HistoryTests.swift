import DBusKit
import Foundation
import TestSupport
import Testing

/// `GetHistory` (petprogress(7) §6.1) over history the daemon did not write itself: history files put in the
/// data directory before it starts, in the shape the release before rest days wrote (schema 1,
/// which every later release must keep reading), and that release's own files.
@Suite("History")
struct HistoryTests {
    /// One closed day of a schema 1 history file, in Europe/Berlin (CET in November–February):
    /// `total` tasks (1 + n mod 3), all done on even days, all but one on odd days.
    struct Day {
        let key: String
        let line: String
        /// The daily result petprogress(7) §2.1 gives it, which the daemon must derive (schema 1 did not keep it).
        let dailyXP: Int
        let xpChange: Int
    }

    static func day(_ n: Int, first: String) -> Day {
        let epochDay = daysSinceEpoch(first) + n
        let key = isoDate(daysSinceEpoch: epochDay)
        let start = Int64(epochDay) * 86_400 - 3600
        let total = 1 + n % 3
        let done = n % 2 == 0 ? total : total - 1
        let daily = done * 10 >= total * 8 ? 3 : (done * 10 < total * 4 ? -3 : 0)
        let xpChange = 2 * done - 2 * (total - done) + daily
        let tasks = (0..<total).map { j -> String in
            let serial = n * 10 + j + 1
            let scheduled = start + Int64(8 + j) * 3600
            let id = key.replacingOccurrences(of: "-", with: "") + "-\(serial)"
            let completion =
                j < done ? #""completedAt":\#(scheduled),"completedSeq":\#(serial),"# : #""completedSeq":0,"#
            return #"{\#(completion)"dayKey":"\#(key)","id":"\#(id)","order":\#(serial),"scheduled":\#(scheduled),"#
                + #""time":"\#(8 + j < 10 ? "0" : "")\#(8 + j):00","title":"Task \#(j) of \#(key)","xp":\#(j < done ? 2 : 0)}"#
        }
        let pet = #"{"stageIndex":1,"stageXP":\#(n % 10)}"#
        let line =
            #"{"record":{"day":{"end":\#(start + 86_400),"key":"\#(key)","start":\#(start)},"done":\#(done),"#
            + #""petAtClose":\#(pet),"petAtOpen":\#(pet),"rate":\#(Double(done) / Double(total)),"#
            + #""tasks":[\#(tasks.joined(separator: ","))],"total":\#(total),"xpChange":\#(xpChange)},"schema":1}"#
        return Day(key: key, line: line, dailyXP: daily, xpChange: xpChange)
    }

    static func daysSinceEpoch(_ key: String) -> Int {
        Int(unix("\(key)T00:00:00Z") / 86_400)
    }

    /// Writes `days` into per-year history files in `directory` (0700, files 0600).
    static func writeHistory(_ days: [Day], to directory: String) throws {
        try FileManager.default.createDirectory(
            atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        for (year, lines) in Dictionary(grouping: days, by: { $0.key.prefix(4) }) {
            let text = lines.map(\.line).joined(separator: "\n") + "\n"
            try write(text, to: "\(directory)/history-\(year).jsonl")
        }
    }

    static func write(_ text: String, to path: String) throws {
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: path)
    }

    @Test(
        "paging back over 100 archived days across two year files: each day once, in order, more right on every page, daily_xp derived"
    )
    func pagingOver100Days() async throws {
        let world = try await World("history")
        defer { world.close() }
        let data = world.sandbox.path("data")
        let days = (0..<100).map { Self.day($0, first: "2025-11-01") }
        #expect(days.last?.key == "2026-02-08")
        try Self.writeHistory(days, to: data)
        _ = try await world.daemon(dataDirectory: data, now: "2026-02-09T10:00:00+01:00")
        let client = try world.client()
        #expect(try client.status().string("last_closed_day") == "2026-02-08")

        var pages: [[[String: DBusValue]]] = []
        var mores: [Bool] = []
        var to = ""
        for _ in 0..<10 {
            let (page, more) = try client.history("", to)
            pages.append(page)
            mores.append(more)
            guard more, let earliest = page.first?.string("day_key") else { break }
            to = isoDate(daysSinceEpoch: Self.daysSinceEpoch(earliest) - 1)
        }
        #expect(pages.map(\.count) == [31, 31, 31, 7])
        #expect(mores == [true, true, true, false])
        let all = Array(pages.reversed().joined())
        #expect(all.map { $0.string("day_key") ?? "" } == days.map(\.key), "each day exactly once, in order")
        for (record, day) in zip(all, days) {
            #expect(record.int("daily_xp") == Int64(day.dailyXP), "\(day.key): daily_xp derived")
            #expect(record.int("xp_change") == Int64(day.xpChange))
            #expect(record.bool("rest") == false, "\(day.key): an old record is not a rest day")
            #expect(record["tasks"]?.vardictArrayValue?.count == Int(record.int("tasks_total") ?? -1))
        }
        // Bounded ranges: inside one year, across the boundary, and past the last closed day.
        #expect(
            try client.history("2025-12-30", "2026-01-02").days.map { $0.string("day_key") } == [
                "2025-12-30", "2025-12-31", "2026-01-01", "2026-01-02",
            ])
        #expect(try client.history("2026-02-08", "2026-12-31").days.count == 1)
        #expect(try client.history("2026-02-09", "").days.isEmpty)
        let ours = "io.petprogress.PetProgress1.Error."
        #expect(
            client.errorName("GetHistory", [.string("2026-02-01"), .string("2026-01-01")]) == ours + "InvalidArgument")
        #expect(client.errorName("GetHistory", [.string("today"), .string("")]) == ours + "InvalidArgument")
        #expect(client.errorName("GetHistory", [.string(""), .string("2026-1-1")]) == ours + "InvalidArgument")
    }

    @Test(
        "a range in this year answers correctly while last year's history file is garbage: only what is needed is read")
    func onlyNeededYearsAreRead() async throws {
        let world = try await World("histgarbage")
        defer { world.close() }
        let data = world.sandbox.path("data")
        let days = (0..<20).map { Self.day($0, first: "2026-01-01") }
        try Self.writeHistory(days, to: data)
        // Garbage, and one well-formed record for a day in the ranges asked below: if the daemon
        // read this file, that day would come back twice (or the garbage would show as a problem).
        let poison = Self.day(6, first: "2026-01-01").line.replacingOccurrences(of: "Task 0", with: "POISON")
        try Self.write(
            "\u{0}\u{7}ELF garbage\n{\"not\": \"a record\"\n" + poison + "\n\u{FF}\u{FE}",
            to: data + "/history-2025.jsonl")
        _ = try await world.daemon(dataDirectory: data, now: "2026-01-21T10:00:00+01:00")
        let client = try world.client()
        #expect(try client.status().string("last_closed_day") == "2026-01-20")

        let week = try client.history("2026-01-05", "2026-01-10")
        #expect(week.days.map { $0.string("day_key") ?? "" } == days[4...9].map(\.key) && !week.more)
        let year = try client.history("2026-01-01", "")
        #expect(year.days.map { $0.string("day_key") ?? "" } == days.map(\.key) && !year.more)
        let titles = year.days.flatMap { $0["tasks"]?.vardictArrayValue ?? [] }.compactMap { $0.string("title") }
        #expect(!titles.contains("POISON"))
        #expect(try client.status()["problems"] == .stringArray([]), "start-up read none of it either")
    }

    @Test(
        "a data directory written by the release before rest days: its history reads as not rest with daily_xp derived; the state migrates, its original kept"
    )
    func theReleaseBeforeRestDays() async throws {
        let world = try await World("histschema1")
        defer { world.close() }
        let data = world.sandbox.path("data")
        let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("PetStoreTests/Fixtures/schema1").path
        try FileManager.default.createDirectory(
            atPath: data, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        for name in ["state.json", "history-2026.jsonl"] {
            try FileManager.default.copyItem(atPath: "\(fixture)/\(name)", toPath: "\(data)/\(name)")
        }
        _ = try await world.daemon(dataDirectory: data, now: "2026-03-03T12:00:00+01:00")
        let client = try world.client()
        #expect(try client.status()["problems"] == .stringArray([]))
        #expect(try client.restDays() == [])
        #expect(try client.tasks().count == 5)
        let (days, more) = try client.history()
        let monday = try #require(days.first)
        #expect(days.count == 1 && !more)
        #expect(monday.string("day_key") == "2026-03-02" && monday.bool("rest") == false)
        // 4 of 5 done: +7 for the completions, one miss (−2), rate 0.8 (+3).
        #expect(monday.int("xp_change") == 8 && monday.int("daily_xp") == 3)
        #expect(monday.int("stage_xp_close") == 8 && monday.string("stage_name_close") == "Tadpole")

        try client.setRest("today", "today", true)
        let state = try String(contentsOfFile: data + "/state.json", encoding: .utf8)
        #expect(state.contains(#""schema":4"#) && state.contains(#""restDays":["2026-03-03"]"#))
        let original = try Data(contentsOf: URL(fileURLWithPath: data + "/state.json.schema1"))
        #expect(try original == Data(contentsOf: URL(fileURLWithPath: "\(fixture)/state.json")))
    }
}
