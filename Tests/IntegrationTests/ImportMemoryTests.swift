import DBusKit
import Foundation
import TestSupport
import Testing

/// An import whose memory does not grow with the document (petprogress(7) §5: "memory that does
/// not grow with its history (records are checked and staged as they are read)"): a real export
/// whose store history is grown, by copies of its first record on days from 1600 on, to about 24
/// and about 104 MiB, each imported by `petctl import` into the real daemon with an empty store.
/// The daemon maps the document (its pages are the file's, which the kernel may drop again) and
/// stages each record as it is read, so its own memory (`RssAnon`, sampled throughout) is about
/// the same for both and far under the unit's `MemoryMax=128M`. In the reliability suites, which
/// `make test` runs one at a time after the others: its writes would slow their timing bounds.
extension Reliability {
    @Suite("import memory")
    struct ImportMemoryTests {
        /// `ImportTests.build`'s export, its daemon stopped, and the bytes one grown day takes in
        /// it (`grownStore`): a history record's line and its indentation.
        static func builtExport(_ world: World) async throws -> (text: String, recordBytes: Int) {
            let (exported, first) = try await ImportTests.build(world)
            #expect(await first.stop() == 0)
            let text = try String(contentsOfFile: exported, encoding: .utf8)
            let head = #"{"history":["# + "\n"
            let opening = try #require(text.range(of: head))
            return (text, try #require(text[opening.upperBound...].split(separator: "\n").first).utf8.count + 8)
        }

        /// The export `text` with `days` records in front of its store's first, keyed from 1600-01-01.
        /// `petctl import PATH`, the daemon's own memory (`RssAnon`) sampled every 20 ms until it ends:
        /// its exit status, what it printed, the largest sample, and how long it took. `VmHWM` would
        /// count the document's file pages, which are clean and the kernel reclaims under the unit's
        /// `MemoryMax`.
        static func importSampled(_ world: World, _ petctl: String, _ path: String, daemon pid: Int32) async throws
            -> (status: Int32?, output: String, anonymous: Int, took: Duration)
        {
            let environment = world.petctlEnvironment
            let sandbox = world.sandbox
            return try await offPool { () throws -> (Int32?, String, Int, Duration) in
                let began = ContinuousClock.now
                let importer = try sandbox.spawn(petctl, ["import", path], environment: environment, label: "import")
                var anonymous = 0
                while importer.isRunning, ContinuousClock.now - began < .seconds(900) {
                    anonymous = max(anonymous, ProcessMemory.anonymous(pid) ?? 0)
                    Thread.sleep(forTimeInterval: 0.02)
                }
                let status = importer.waitExitBlocking(timeout: .seconds(900))
                return (status, importer.output + importer.errors, anonymous, ContinuousClock.now - began)
            }
        }

        static func grownStore(_ text: String, days: Int) throws -> [UInt8] {
            let head = #"{"history":["# + "\n"
            let opening = try #require(text.range(of: head), "the export's store history")
            let rest = text[opening.upperBound...]
            let line = try #require(rest.split(separator: "\n", maxSplits: 1).first, "a store record")
            let record = String(line.hasSuffix(",") ? line.dropLast() : line)
            let key = try #require(record.range(of: #""key":""#), "the record's day key")
            let prefix = Array(record[..<key.upperBound].utf8)
            let suffix = Array(record[record.index(key.upperBound, offsetBy: 10)...].utf8) + Array(",\n".utf8)
            var calendar = Calendar(identifier: .gregorian)
            calendar.timeZone = TimeZone(identifier: "UTC")!
            var day = calendar.date(from: DateComponents(year: 1600, month: 1, day: 1))!
            var document = Array(text[..<opening.upperBound].utf8)
            document.reserveCapacity(days * (prefix.count + suffix.count + 10) + text.utf8.count)
            for _ in 0..<days {
                let c = calendar.dateComponents([.year, .month, .day], from: day)
                document += prefix
                document += Array(String(format: "%04d-%02d-%02d", c.year!, c.month!, c.day!).utf8)
                document += suffix
                day = calendar.date(byAdding: .day, value: 1, to: day)!
            }
            document += Array(rest.utf8)
            return document
        }

        @Test("24 and 104 MiB imported with the daemon's own memory flat and far under the unit's limit")
        func importMemoryFlat() async throws {
            let world = try await World("import-memory")
            defer { world.close() }
            let (text, recordBytes) = try await Self.builtExport(world)
            let petctl = try productBinary("petctl", override: "PETCTL")
            var peaks: [(bytes: Int, anonymous: Int, hwm: Int)] = []
            for (n, size) in [24 << 20, 104 << 20].enumerated() {
                let days = size / recordBytes
                var document = try Self.grownStore(text, days: days)
                let bytes = document.count
                let path = world.sandbox.path("grown-\(n).json")
                try Data(document).write(to: URL(fileURLWithPath: path))
                document = []
                let data = world.sandbox.path("m\(n)")
                let daemon = try await world.daemon(dataDirectory: data, now: ImportTests.wednesday)
                let pid = try world.client().daemonPID()
                let (status, output, anonymous, took) = try await Self.importSampled(world, petctl, path, daemon: pid)
                #expect(status == 0, "\(output)")
                let hwm = ProcessMemory.peak(pid) ?? 0
                print(
                    "import memory: \(bytes >> 20) MiB (\(days + 2) closed days) imported in \(took); daemon RssAnon at most \(anonymous) KiB, VmHWM \(hwm) KiB (with the document's file pages)"
                )
                peaks.append((bytes, anonymous, hwm))
                // Every record staged: the first day's year has its history file.
                #expect(FileManager.default.fileExists(atPath: data + "/history-1600.jsonl"))
                let client = try world.client()
                #expect(try client.tasks().map { $0.string("title") ?? "" }.contains("Call Ann"))
                #expect(await daemon.stop() == 0)
            }
            let (small, big) = (peaks[0], peaks[1])
            // Far under the unit's MemoryMax=128M, whatever the document's size.
            #expect(big.anonymous < 48 << 10, "RssAnon \(big.anonymous) KiB importing \(big.bytes >> 20) MiB")
            // Four times the document, not more than a few MiB more of the daemon's own memory
            // (the records' places: 16 bytes a day).
            #expect(
                big.anonymous - small.anonymous < 8 << 10,
                "RssAnon \(small.anonymous) KiB for \(small.bytes >> 20) MiB, \(big.anonymous) KiB for \(big.bytes >> 20) MiB"
            )
        }
    }
}
