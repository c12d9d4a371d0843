import DBusKit
import Foundation
import TestSupport
import Testing

/// An import that costs what it weighs without stalling anyone else (petprogress(7) §5: "the loop
/// answers others meanwhile"): a real export grown to 56 MiB, near the 64 MiB an import reads (its
/// readable `history`, which an import reads past, filled with day records) is imported by `petctl
/// import` into the real daemon while another client calls `GetWidgetEntry` over and over. The
/// document is parsed off the loop, so those calls are answered as usual throughout, and the
/// import succeeds. In the reliability suites, which `make test` runs one at a time after the others: this one's
/// seconds of CPU and writes would otherwise share the machine with their sub-second bounds.
extension Reliability {
    @Suite("an import beside callers")
    struct ImportBesideCallersTests {
        static let bigImportSize = 56 << 20

        /// A day record as `petctl export` writes the readable history: one line, ten tasks.
        static func fillerDay(_ n: Int) -> String {
            let tasks = (1...10).map { i in
                #"{"id":"2026030\#(n % 9 + 1)-\#(i)","title":"Task \#(i) \"quoted\" ✓ \#(n)","time":"\#(10 + i):00","effective_time":"\#(10 + i):00","done":\#(i % 2 == 0),"xp":\#(i % 3),"number":\#(i),"completed_at":1772450000,"snoozed_until":0,"repeat":"","template_id":""}"#
            }
            return #"{"day_key":"2026-03-0\#(n % 9 + 1)","rate":0.5,"rest":false,"away":false,"xp_change":-4,"tasks":["#
                + tasks.joined(separator: ",") + "]}"
        }

        @Test("56 MiB imported while another caller's GetWidgetEntry is answered as usual")
        func importBesideCallers() async throws {
            let world = try await World("import-beside")
            defer { world.close() }
            let (exported, first) = try await ImportTests.build(world)
            #expect(await first.stop() == 0)
            let text = try String(contentsOfFile: exported, encoding: .utf8)
            // One block of records, repeated: what costs is the parse, not how the test builds it.
            let block = Array(((0..<512).map(Self.fillerDay).joined(separator: ",\n    ") + ",\n    ").utf8)
            let history = try #require(text.range(of: #""history": ["#), "the export's readable history")
            var document = Array(text[..<history.lowerBound].utf8) + Array("\"history\": [\n    ".utf8)
            document.reserveCapacity(Self.bigImportSize + text.utf8.count + block.count)
            while document.count < Self.bigImportSize { document += block }
            document += Array(text[history.upperBound...].drop { $0 == "\n" || $0 == " " }.utf8)
            let bytes = document.count
            let big = world.sandbox.path("big.json")
            try Data(document).write(to: URL(fileURLWithPath: big))
            document = []

            let daemon = try await world.daemon(dataDirectory: world.sandbox.path("b"), now: ImportTests.wednesday)
            let pid = try world.client().daemonPID()
            let environment = world.petctlEnvironment
            let bus = world.bus
            let petctl = try productBinary("petctl", override: "PETCTL")
            let sandbox = world.sandbox
            // Off the test pool: the calls block, and their timing is the measurement.
            let (importTook, status, output, latencies) = try await offPool {
                () throws -> (Duration, Int32?, String, [Duration]) in
                let client = try RawClient(bus: bus)
                let began = ContinuousClock.now
                let importer = try sandbox.spawn(petctl, ["import", big], environment: environment, label: "import")
                var latencies: [Duration] = []
                while importer.isRunning, ContinuousClock.now - began < .seconds(600) {
                    let start = ContinuousClock.now
                    _ = try client.entry()
                    latencies.append(ContinuousClock.now - start)
                    Thread.sleep(forTimeInterval: 0.05)
                }
                let status = importer.waitExitBlocking(timeout: .seconds(600))
                return (ContinuousClock.now - began, status, importer.output + importer.errors, latencies)
            }
            #expect(status == 0, "\(output)")
            let sorted = latencies.sorted()
            let median = sorted.isEmpty ? .zero : sorted[sorted.count / 2]
            let p90 = sorted.isEmpty ? .zero : sorted[sorted.count * 9 / 10]
            let worst = sorted.last ?? .zero
            let peak = ProcessMemory.peak(pid) ?? 0
            print(
                "import beside callers: \(bytes >> 20) MiB imported in \(importTook); \(latencies.count) GetWidgetEntry calls meanwhile: median \(median), p90 \(p90), max \(worst); daemon peak \(peak) KiB"
            )
            // Parsed on the loop, every call made during the parse waited for all of it: the worst was
            // most of the import's time. Parsed beside it, the worst is a small part of it (and the
            // usual answer is a loaded machine's usual), however fast or slow the machine.
            #expect(latencies.count >= 3, "calls answered during the import: \(latencies.count) in \(importTook)")
            #expect(worst < importTook / 4, "max \(worst) of an import of \(importTook)")
            #expect(p90 < .milliseconds(500), "p90 \(p90)")
            let client = try world.client()
            #expect(try client.tasks().map { $0.string("title") ?? "" }.contains("Call Ann"))
            #expect(await daemon.stop() == 0)
        }
    }
}
