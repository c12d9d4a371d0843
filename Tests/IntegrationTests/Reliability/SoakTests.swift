import DBusKit
import Foundation
import TestSupport
import Testing

extension Reliability {
    /// Soak (docs/RELIABILITY.md §4): days of simulated time at `--time-scale` with seeded random
    /// interactions.
    @Suite("soak")
    struct SoakTests {
        /// The full run: a week from Monday 2 March 2026 (no DST change in Berlin until the 29th).
        /// The fast run: two day changes, starting in the evening.
        static let start = ReliabilityRun.size(fast: "2026-03-02T20:00:30+01:00", full: "2026-03-02T00:00:30+01:00")
        static let scale = ReliabilityRun.size(fast: 4320.0, full: 2016.0)
        static let lastOpenDay = ReliabilityRun.size(fast: "2026-03-04", full: "2026-03-09")
        /// Memory growth is the median resident size over the last day against that over day 2 of
        /// the week (the fast run: its second day against its first, short one). Medians of every
        /// probe in the day, not one reading at the day's opening: the heap's top moves by a
        /// MiB within a day as the user's replies come and go (one reading per opening saw
        /// RssAnon at 2.01, 1.50, then 2.46 MiB on successive days).
        static let growthDays = ReliabilityRun.size(
            fast: ("2026-03-02", "2026-03-03"), full: ("2026-03-03", "2026-03-08"))
        static let closedDays = ReliabilityRun.size(
            fast: ["2026-03-02", "2026-03-03"],
            full: ["2026-03-02", "2026-03-03", "2026-03-04", "2026-03-05", "2026-03-06", "2026-03-07", "2026-03-08"])

        @Test(
            "simulated days with random interactions: one EntryChanged per tick, each day closed and archived once, memory flat"
        )
        func simulatedWeek() async throws {
            let world = try await World("soak")
            defer { world.close() }
            let recorder = try SignalRecorder(bus: world.bus)
            defer { recorder.stop() }
            let daemon = try await world.daemon(now: Self.start, timeScale: Self.scale)
            let user = SoakUser(client: try world.client(), seed: 4)
            let interactions = Thread { user.run() }
            interactions.start()
            var residentAtOpen: [(day: String, kib: Int, anonymous: Int)] = []
            var resident: [String: [Int]] = [:]
            let probe = try world.client()
            let finished = await poll(timeout: .seconds(ReliabilityRun.size(fast: 120, full: 900))) {
                let day = try probe.status().string("open_day") ?? ""
                if day != residentAtOpen.last?.day, let kib = ProcessMemory.resident(daemon.process.pid),
                    let anonymous = ProcessMemory.anonymous(daemon.process.pid)
                {
                    residentAtOpen.append((day, kib, anonymous))
                }
                if let kib = ProcessMemory.resident(daemon.process.pid) { resident[day, default: []].append(kib) }
                return day == Self.lastOpenDay
            }
            user.stop()
            while !user.stopped { try await Task.sleep(for: .milliseconds(20)) }
            #expect(finished, "the simulated days did not pass: \(daemon.process.errors.suffix(2000))")
            // The snapshot the daemon shows now, then the ticks it announced up to it.
            let shown = try probe.entry().int("date") ?? 0
            #expect(await daemon.stop() == 0)
            let ticks = recorder.signals("EntryChanged").map { $0.entry.int("date") ?? 0 }
            let first = Self.firstTick(after: unix(Self.start))
            #expect(ticks.first == first, "the first EntryChanged is for the first tick after the start")
            let expected = Array(stride(from: first, through: max(first, ticks.last ?? first), by: 3600))
            #expect(ticks == expected, "one EntryChanged per tick, in order, none twice, none missed")
            #expect(ticks.last.map { $0 >= shown && $0 - shown <= 3600 } == true, "\(shown) \(ticks.suffix(2))")
            #expect(user.failures.isEmpty, "\(user.failures.prefix(5))")
            try checkClosedOnce(daemon)
            let growth = Self.growth(resident)
            #expect(
                growth.kib < 1024,
                "resident memory grew \(growth.kib) KiB from \(Self.growthDays.0) to \(Self.growthDays.1): \(residentAtOpen)"
            )
            try ReliabilityRun.fragment(
                "40-soak",
                Self.markdown(ticks: ticks.count, calls: user.calls, resident: residentAtOpen, growth: growth))
        }

        /// Each closed day once in history (the file and `GetHistory` after a restart) and in the log.
        private func checkClosedOnce(_ daemon: PetDaemon) throws {
            let file = try String(contentsOfFile: daemon.dataDirectory + "/history-2026.jsonl", encoding: .utf8)
            let keys = file.split(separator: "\n").compactMap { line -> String? in
                let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
                return ((object?["record"] as? [String: Any])?["day"] as? [String: Any])?["key"] as? String
            }
            #expect(keys == Self.closedDays, "history-2026.jsonl holds \(keys)")
            for day in Self.closedDays {
                let closings = daemon.process.errors.components(separatedBy: "closed \(day)").count - 1
                #expect(closings == 1, "\(day) closed \(closings) times")
            }
        }

        static func firstTick(after instant: Int64) -> Int64 { (instant / 3600 + 1) * 3600 }

        /// The median resident size over each of `growthDays`, and the difference.
        static func growth(_ resident: [String: [Int]]) -> (from: Int, to: Int, kib: Int) {
            func median(_ day: String) -> Int? {
                guard let values = resident[day]?.sorted(), !values.isEmpty else { return nil }
                return values[values.count / 2]
            }
            guard let from = median(growthDays.0), let to = median(growthDays.1) else { return (0, 0, .max) }
            return (from, to, to - from)
        }

        static func markdown(
            ticks: Int, calls: Int, resident: [(day: String, kib: Int, anonymous: Int)],
            growth: (from: Int, to: Int, kib: Int)
        )
            -> String
        {
            func f(_ value: Double, _ digits: Int = 1) -> String { ReliabilityRun.format(value, digits) }
            let rows = resident.map {
                "| \($0.day) | \(f(Double($0.kib) / 1024, 2)) MiB | \(f(Double($0.anonymous) / 1024, 2)) MiB |"
            }.joined(separator: "\n")
            return """
                ## 4. Soak

                A simulated week (`--now \(start) --time-scale \(Int(scale))`, \(ReliabilityRun.daemonBuild)) with a seeded
                random user adding, completing and snoozing tasks and reading the entry, the
                timeline and history every 20–200 ms (\(calls) calls).

                | | result |
                | --- | --- |
                | `EntryChanged` signals = ticks | \(ticks) = \(ticks): one per tick, in order, none twice, none missed |
                | days closed | \(closedDays.count) (\(closedDays.first ?? "")…\(closedDays.last ?? "")), each archived once in `history-2026.jsonl` and logged once |
                | resident memory, median over \(growthDays.0) → over \(growthDays.1) | \(f(Double(growth.from) / 1024, 2)) → \(f(Double(growth.to) / 1024, 2)) MiB (\(growth.kib >= 0 ? "+" : "")\(growth.kib) KiB; target < 1 MiB) |

                Resident memory as each day opened (one reading each; the growth above compares medians):

                | open day | VmRSS | of it RssAnon (heap, stacks) |
                | --- | --- | --- |
                \(rows)

                """
        }
    }
}
