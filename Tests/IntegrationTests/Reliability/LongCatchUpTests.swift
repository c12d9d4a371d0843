import DBusKit
import Foundation
import TestSupport
import Testing

extension Reliability {
    /// A catch-up over years at the per-day task limit (petprogress(7) §3.1): the
    /// real daemon, its open day years back with 100 daily templates and 100 one-offs rolling over
    /// (200 tasks a day), started years later. Its peak resident size (`VmHWM`) stays under
    /// 100 MiB — the unit's `MemoryMax` is 128M — because it commits in bounded steps; the snapshot
    /// before the catch-up is kept; a restart finds everything as it was, nothing set aside; the
    /// history it wrote reads back page by page, and so does the store (`ExportStorePart`, each page
    /// far below a reply's bound); and `petctl export`, which pages both, imports back into an empty
    /// directory with its own memory flat and exports the same document. Fast: 45 days (two steps); full: ten years.
    @Suite("a long catch-up at the task limit")
    struct LongCatchUpTests {
        static let start = "2016-12-07T09:00:00+01:00"
        static let later = ReliabilityRun.size(fast: "2017-01-21T09:00:00+01:00", full: "2026-12-07T09:00:00+01:00")
        /// The days closed: the start day up to the day before `later`.
        static let closed = ReliabilityRun.size(fast: 45, full: 3652)
        static let peakBound = 100 * 1024  // KiB

        /// `petctl` with time for a large store (the debug build).
        static func petctl(_ world: World, _ arguments: [String]) async throws {
            let result = try await world.sandbox.run(
                try productBinary("petctl", override: "PETCTL"), arguments, environment: world.petctlEnvironment,
                timeout: .seconds(600))
            #expect(result.status == 0 && result.errors.isEmpty, "\(arguments): \(result)")
        }

        /// An export's bytes but for when it was made (`"exported_at": N`, in its first lines): the clock
        /// runs on between two exports. Bytes, not a `String` with a pattern: at full size each is 365 MB.
        static func undated(_ path: String) throws -> Data {
            let data = try Data(contentsOf: URL(fileURLWithPath: path))
            let key = Data(#""exported_at": "#.utf8)
            guard let found = data.prefix(4096).range(of: key) else { return data }
            let digits = data[found.upperBound...].prefix { (0x30...0x39).contains($0) }.count
            return data[..<found.lowerBound] + data[(found.upperBound + digits)...]
        }

        @Test("years caught up under 100 MiB, restarted, read back, exported and imported")
        func longCatchUp() async throws {
            let world = try await World("longcatchup")
            defer { world.close() }
            let data = world.sandbox.path("data")
            var daemon = try await world.daemon(dataDirectory: data, now: Self.start)
            var client = try world.client()
            for n in 0..<100 {
                _ = try client.addTaskFor(
                    "Daily \(n)", String(format: "%02d:%02d", 10 + n / 60, n % 60), day: "", repeat: "daily")
            }
            for n in 0..<100 {
                _ = try client.addTask("Once \(n)", String(format: "%02d:%02d", 12 + n / 60, n % 60))
            }
            try client.setProperty("Rollover", .bool(true))
            #expect(try client.tasks().count == 200)
            #expect(await daemon.stop() == 0)

            let began = ContinuousClock.now
            daemon = try await world.daemon(dataDirectory: data, now: Self.later, waitForName: false)
            try await offPool { [daemon, bus = world.bus] in
                try daemon.waitUntilOwned(bus: bus, timeout: .seconds(1800))
            }
            // The name is owned before the start-up catch-up runs; the start-up line follows it.
            for _ in 0..<18_000 where !daemon.process.errors.contains("petprogressd: started: data ") {
                try await Task.sleep(for: .milliseconds(100))
            }
            let took = ContinuousClock.now - began
            let peak = try #require(ProcessMemory.peak(daemon.process.pid))
            #expect(peak < Self.peakBound, "peak \(peak) KiB")
            print("long catch-up: \(Self.closed) days in \(took), peak \(peak) KiB")
            client = try world.client()
            var status = try client.status()
            #expect(status.string("last_closed_day") == (ReliabilityRun.isFull ? "2026-12-06" : "2017-01-20"))
            #expect(
                status["problems"]?.unwrappingVariants.arrayValues?.isEmpty == true,
                "\(String(describing: status["problems"]))")
            #expect(FileManager.default.fileExists(atPath: "\(data)/state-before-2016-12-07.json"))
            #expect(try client.tasks().count == 200)

            // Restarted: the same store, nothing set aside, no catch-up left.
            #expect(await daemon.stop() == 0)
            daemon = try await world.daemon(dataDirectory: data, now: Self.later)
            client = try world.client()
            status = try client.status()
            #expect(status["problems"]?.unwrappingVariants.arrayValues?.isEmpty == true)
            let names = try FileManager.default.contentsOfDirectory(atPath: data)
            #expect(!names.contains { $0.contains("corrupt") }, "\(names)")

            // Read back page by page: every closed day once, each at the task limit, counts agreeing.
            var to = ""
            var days = 0
            var pages = 0
            while pages < 1000 {
                let (page, more) = try client.history("", to)
                pages += 1
                if pages % 20 == 0 { print("long catch-up: page \(pages), \(ContinuousClock.now - began)") }
                for day in page {
                    days += 1
                    let tasks = day["tasks"]?.unwrappingVariants.arrayValues ?? []
                    #expect(tasks.count == 200 && day.int("tasks_total") == 200, "\(day.string("day_key") ?? "?")")
                }
                guard more, let first = page.first?.string("day_key") else { break }
                to = try #require(ImportTests.dayBefore(first))
            }
            #expect(days == Self.closed)
            let peakAfterReading = try #require(ProcessMemory.peak(daemon.process.pid))
            print("long catch-up: \(pages) pages read back, peak \(peakAfterReading) KiB")
            #expect(peakAfterReading < Self.peakBound, "peak \(peakAfterReading) KiB after reading history")

            // The store in pages by size (petprogress(7) §6): each far below the 32 MiB a reply may
            // carry, every day once, and the last page ends the member.
            var after = ""
            var storeDays = 0
            var storePages = 0
            var largest = 0
            var ended = false
            while storePages < 1000 {
                let reply = try client.call("ExportStorePart", [.string(after)])
                let part = try #require(reply[0].stringValue)
                storePages += 1
                largest = max(largest, part.utf8.count)
                storeDays += part.components(separatedBy: "\n{").count - 1
                guard try #require(reply[2].boolValue) else {
                    ended = part.hasSuffix("}")
                    break
                }
                let last = try #require(reply[1].stringValue)
                #expect(last > after)
                after = last
            }
            #expect(storeDays == Self.closed && ended && storePages >= 2)
            #expect(largest < 32 << 20, "largest page \(largest) bytes")
            let peakAfterStore = try #require(ProcessMemory.peak(daemon.process.pid))
            print(
                "long catch-up: the store in \(storePages) pages, the largest \(largest) bytes, peak \(peakAfterStore) KiB"
            )
            #expect(peakAfterStore < Self.peakBound, "peak \(peakAfterStore) KiB after paging the store")

            // Exported (paging both history and the store) and imported into an empty store: the same
            // export back. At full size about 365 MB, within the 1 GiB an import reads; the importing
            // daemon's own memory stays under ImportMemoryTests' bound.
            let exported = world.sandbox.path("export.json")
            let exportBegan = ContinuousClock.now
            try await Self.petctl(world, ["export", "--output", exported])
            let exportTook = ContinuousClock.now - exportBegan
            let size = try #require(try FileManager.default.attributesOfItem(atPath: exported)[.size] as? Int)
            // What sets the import's bound: twenty years of days like these (docs/DECISIONS.md).
            print(
                "long catch-up: the export \(size) bytes in \(exportTook), \(size / Self.closed) a closed day at the task limit"
            )
            #expect(size / Self.closed * 7305 < 1 << 30, "twenty years of \(size / Self.closed) bytes a day")
            #expect(await daemon.stop() == 0)
            daemon = try await world.daemon(dataDirectory: world.sandbox.path("empty"), now: Self.later)
            // Held to the unit's MemoryMax=128M, page cache included (the copy and the mapped document):
            // the kernel must reclaim, not kill. A memory cgroup needs root, which `make test` has.
            let limit = MemoryLimit(
                name: "ppit-longcatchup-\(daemon.process.pid)", bytes: 128 << 20, pid: daemon.process.pid)
            defer { limit?.close() }
            #expect(limit != nil || getuid() != 0, "no memory cgroup could be made as root")
            let (importStatus, importOutput, anonymous, importTook) = try await ImportMemoryTests.importSampled(
                world, try productBinary("petctl", override: "PETCTL"), exported, daemon: daemon.process.pid)
            #expect(importStatus == 0, "\(importOutput)")
            print("long catch-up: imported in \(importTook), the daemon's RssAnon at most \(anonymous) KiB")
            // Its own memory, as ImportMemoryTests measures it: the document's mapped pages are clean.
            #expect(anonymous < 48 << 10, "RssAnon \(anonymous) KiB importing \(size >> 20) MiB")
            #expect(limit?.oomKills ?? 0 == 0 && daemon.process.isRunning)
            let held =
                limit.map { limit in
                    "held to 128 MiB by a memory cgroup (page cache included; the most it held \((limit.maxUsage ?? 0) >> 20) MiB, \(limit.oomKills) OOM kills)"
                } ?? "with no memory cgroup (not root)"
            print("long catch-up: the import \(held)")
            let again = world.sandbox.path("again.json")
            try await Self.petctl(world, ["export", "--output", again])
            #expect(try Self.undated(exported) == Self.undated(again))
            #expect(await daemon.stop() == 0)
            try ReliabilityRun.fragment(
                "45-catch-up",
                """
                ## A long catch-up at the task limit

                \(Self.closed) days at 200 tasks a day caught up at start-up by \(ReliabilityRun.daemonBuild) in \
                \(ReliabilityRun.seconds(took)): peak resident \(peak / 1024) MiB (bound 100 MiB; the unit's MemoryMax is 128M), \
                \(peakAfterReading / 1024) MiB after paging all of its history back, \(peakAfterStore / 1024) MiB \
                after reading the store in \(storePages) pages (the largest \(largest / 1024) KiB). \
                `petctl export` (\(ReliabilityRun.petctlBuild)) wrote \(size / 1_000_000) MB \
                (\(size / Self.closed / 1000) kB a closed day) in \(ReliabilityRun.seconds(exportTook)); imported into an \
                empty store in \(ReliabilityRun.seconds(importTook)), \(held), with the daemon's own memory \
                (`RssAnon`) at most \(anonymous / 1024) MiB, it exported the same document again.

                """)
        }
    }
}
