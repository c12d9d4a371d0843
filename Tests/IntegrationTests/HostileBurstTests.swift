import DBusKit
import Foundation
import PetBus
import TestSupport
import Testing

extension Reliability {
    /// Hostile input at scale (docs/RELIABILITY.md, "Hostile input"): seeded random calls from
    /// `hostile-client` — random members, interfaces, paths and signatures, values nested to the
    /// bus's limits, strings up to 1 MiB, file descriptors — 10^4 in `make test`, 10^6 in `make
    /// reliability`. Every call is answered, no rejected call changes anything, and the daemon ends
    /// the burst with the memory and file descriptors it had before. Then the size bounds: the
    /// largest legitimate request works, and oversized calls, alone or in a flood, leave nothing
    /// behind. Under `Reliability`: it runs after the suites that race a scaled clock, not beside
    /// them.
    @Suite("Hostile input at scale")
    struct HostileBurstTests {
        static let calls = ReliabilityRun.size(fast: 10_000, full: 1_000_000)
        /// One string in this many is 64 KiB to 1 MiB long.
        static let bigEvery = ReliabilityRun.size(fast: 1_000, full: 20_000)
        static let seed: UInt64 = 20_260_302
        static let kib = 1024

        /// The client's `key value` lines.
        struct Report {
            let text: String
            func count(_ key: String) -> Int? {
                text.split(separator: "\n").lazy.compactMap { line -> Int? in
                    let parts = line.split(separator: " ")
                    return parts.count == 2 && parts[0] == key ? Int(parts[1]) : nil
                }.first
            }
            func lines(_ prefix: String) -> [String] {
                text.split(separator: "\n").filter { $0.hasPrefix(prefix + " ") }.map { String($0) }
            }
            var seconds: Double {
                lines("seconds").first.flatMap { Double($0.dropFirst("seconds ".count)) } ?? 0
            }
        }

        static func hostile(_ world: World, seed: UInt64, calls: Int, bigEvery: Int) async throws -> Report {
            let client = try productBinary("hostile-client", override: "HOSTILE_CLIENT")
            let result = try await world.sandbox.run(
                client, [world.bus.address, String(seed), String(calls), String(bigEvery)],
                environment: world.bus.environment, timeout: .seconds(3600))
            guard result.status == 0 else { throw HarnessError("hostile-client \(result.status): \(result.output)") }
            return Report(text: result.output)
        }

        static func descriptors(_ pid: pid_t) -> Int {
            (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd").count) ?? -1
        }

        @Test("seeded random hostile calls: all answered, nothing changed, memory and descriptors as before")
        func burst() async throws {
            let setup = try await HostileInputTests.Setup.make("burst")
            defer { setup.world.close() }
            // No task pending: MarkNextDone and SnoozeNext must fail too.
            #expect(try setup.client.markDone(setup.pending) == 2)
            let pid = setup.daemon.process.pid
            // A first, smaller burst with other values brings every path's one-time allocations in.
            _ = try await Self.hostile(setup.world, seed: 1, calls: 2_000, bigEvery: 100)
            let before = try setup.fingerprint()
            let residentBefore = try #require(ProcessMemory.resident(pid))
            let descriptorsBefore = Self.descriptors(pid)

            let report = try await Self.hostile(
                setup.world, seed: Self.seed, calls: Self.calls, bigEvery: Self.bigEvery)

            let residentAfter = try #require(ProcessMemory.resident(pid))
            let descriptorsAfter = Self.descriptors(pid)
            #expect(report.count("sent") == Self.calls, "\(report.text.prefix(500))")
            #expect(report.count("replies") == Self.calls)
            #expect(report.count("unanswered") == 0, "\(report.lines("unanswered-call"))")
            #expect(report.count("mutations") == 0, "a hostile call changed data: \(report.lines("mutating-call"))")
            #expect(setup.daemon.process.isRunning)
            HostileInputTests.expectUnchanged(before, try setup.fingerprint())
            #expect(
                residentAfter - residentBefore <= Self.kib,
                "resident \(residentBefore) KiB before the burst, \(residentAfter) KiB after")
            #expect(
                descriptorsAfter == descriptorsBefore, "open descriptors \(descriptorsBefore) → \(descriptorsAfter)")
            try ReliabilityRun.fragment(
                "60-hostile-input",
                Self.burstFragment(report, resident: (residentBefore, residentAfter), descriptors: descriptorsAfter))
        }

        static func burstFragment(_ report: Report, resident: (Int, Int), descriptors: Int) -> String {
            let rate = Double(calls) / max(report.seconds, 0.001)
            var lines = [
                "## Hostile input", "",
                "`HostileBurstTests.burst`, \(ReliabilityRun.daemonBuild): \(calls) seeded random calls (seed \(seed)) "
                    + "from `hostile-client` in batches of 64 — random members, interfaces, paths and signatures, "
                    + "values nested to the bus's limits (32 arrays, 32 structs, 64 containers), strings up to "
                    + "1 MiB (one in \(bigEvery)), file descriptors — and the daemon's own members with values it "
                    + "must refuse. Before it, a daemon with a done task, a task for tomorrow, a template and a "
                    + "rest day, and no task pending.", "",
                "| | |", "| --- | --- |",
                "| calls answered | \(report.count("replies") ?? 0) of \(calls) in \(ReliabilityRun.format(report.seconds)) s "
                    + "(\(Int(rate)) calls/s) |",
                "| unanswered | \(report.count("unanswered") ?? -1) |",
                "| drawn but not sent (over the bus's limits: a signature over 255 characters, a message over "
                    + "4 MiB or 8 descriptors) | \(report.count("unsendable") ?? -1) |",
                "| rejected calls that changed data | \(report.count("mutations") ?? -1) (every read, setting, task "
                    + "list, the pet and `state.json`'s bytes compared before and after) |",
                "| resident memory | \(resident.0) KiB before the burst, \(resident.1) KiB after "
                    + "(\(resident.1 - resident.0 >= 0 ? "+" : "")\(resident.1 - resident.0) KiB; bound 1024) |",
                "| open descriptors after | \(descriptors), as before |", "",
                "| answer | calls |", "| --- | --- |",
            ]
            for line in report.lines("error") + report.lines("success") {
                let parts = line.split(separator: " ")
                guard parts.count == 3 else { continue }
                lines.append("| \(parts[0]) `\(parts[1])` | \(parts[2]) |")
            }
            return lines.joined(separator: "\n") + "\n\n"
        }

        /// The longest title (200 code points of 4 bytes), `tomorrow`, every weekday: the largest call petprogress(7) allows.
        static func largestRequest() throws -> Message {
            let message = try Message.methodCall(
                destination: PetDaemon.name, path: PetDaemon.path, interface: PetDaemon.interface, member: "AddTaskFor")
            try message.append([
                .string(String(repeating: "🐱", count: 200)), .string("23:59"), .string("tomorrow"),
                .string("mon,tue,wed,thu,fri,sat,sun"),
            ])
            return message
        }

        @Test("the largest legitimate request works; oversized calls, one or a flood, are refused and leave nothing")
        func sizeBounds() async throws {
            let world = try await World("sizes")
            defer { world.close() }
            let daemon = try await world.daemon(now: HostileInputTests.now)
            let client = try world.client()
            let pid = daemon.process.pid

            let largest = try Self.largestRequest()
            // The bus adds the sender, `:1.65535` at most in a test: 24 bytes with its field header.
            let wire = try #require(largest.wireSize) + 24
            #expect(wire <= PetBus.largestRequestBytes, "the largest request is \(wire) bytes")
            let reply = try client.connection.call(largest, timeout: .seconds(20))
            #expect(reply.kind != .error, "\(reply.error.map(String.init(describing:)) ?? "")")
            let template = try #require(try reply.arguments().first?.stringValue)
            #expect(try client.call("ListTemplates").first?.vardictArrayValue?.count == 1)
            try client.call("DeleteTask", [.string(template)])

            _ = try client.addTask("Warm-up", "09:00")
            let big = String(repeating: "x", count: 4 << 20)
            #expect(
                client.errorName("AddTask", [.string(big), .string("09:00")]) == HostileInputTests.ours
                    + "InvalidArgument")
            let before = try client.status().int("mutations")
            let residentBefore = try #require(ProcessMemory.resident(pid))

            // One call of 24 MiB: refused, and its buffers go back to the system.
            let huge = String(repeating: "x", count: 24 << 20)
            #expect(
                client.errorName("AddTask", [.string(huge), .string("09:00")]) == HostileInputTests.ours
                    + "InvalidArgument"
            )
            // libdbus shrinks its read buffer when it next reads: one more call.
            let heldUntilNextCall = try #require(ProcessMemory.resident(pid))
            _ = try client.status()
            let afterOne = try #require(ProcessMemory.resident(pid))
            // Over the bus's own limit (32 MiB unless configured): the bus disconnects the sender.
            let sender = try world.client()
            let over = String(repeating: "x", count: 40 << 20)
            #expect(
                sender.errorName("AddTask", [.string(over), .string("09:00")])
                    == "org.freedesktop.DBus.Error.Disconnected")

            // 48 calls of 2 MiB at once: the daemon reads them one by one as it answers them.
            try "5".write(toFile: "/proc/\(pid)/clear_refs", atomically: false, encoding: .utf8)
            let flood = try (0..<48).map { _ in
                let message = try Message.methodCall(
                    destination: PetDaemon.name, path: PetDaemon.path, interface: PetDaemon.interface, member: "AddTask"
                )
                try message.append([.string(String(repeating: "y", count: 2 << 20)), .string("09:00")])
                return message
            }
            let replies = try client.connection.call(all: flood, timeout: .seconds(120))
            let peak = try #require(ProcessMemory.peak(pid))
            _ = try client.status()
            let afterFlood = try #require(ProcessMemory.resident(pid))
            #expect(replies.allSatisfy { $0.errorName == HostileInputTests.ours + "InvalidArgument" })
            #expect(daemon.process.isRunning)
            #expect(try client.status().int("mutations") == before)
            #expect(afterOne - residentBefore <= Self.kib, "24 MiB call: \(residentBefore) → \(afterOne) KiB")
            #expect(afterFlood - residentBefore <= Self.kib, "flood: \(residentBefore) → \(afterFlood) KiB")
            // Held at once: the call being read, the one being answered and its copy as a Swift string.
            #expect(peak - residentBefore <= 16 * Self.kib, "flood of 48 × 2 MiB: peak \(peak) KiB")
            try ReliabilityRun.fragment(
                "61-size-bounds",
                """
                ## Size bounds

                `HostileBurstTests.sizeBounds`, \(ReliabilityRun.daemonBuild). The largest request petprogress(7) allows \
                (`AddTaskFor`, a 200-code-point title of 4-byte characters, `tomorrow`, every weekday) is \
                \(wire) bytes on the wire and succeeds. The daemon sets no per-message limit of its own, \
                because libdbus enforces one by disconnecting the receiver from the bus (docs/DECISIONS.md, \
                "No per-message size limit on the daemon's connection"): the bus's limit bounds one call \
                (32 MiB here; a 40 MiB call got its sender disconnected and the daemon never saw it). Calls \
                are read one at a time as the daemon handles them; the rest wait in the bus. Large buffers \
                go back to the system when freed.

                | | resident (KiB) |
                | --- | --- |
                | before | \(residentBefore) |
                | right after one 24 MiB call (refused): libdbus may keep its read buffer until its next read \
                | \(heldUntilNextCall) |
                | after the next call | \(afterOne) |
                | peak during 48 × 2 MiB calls sent at once (all refused) | \(peak) |
                | after the flood and one more call | \(afterFlood) |


                """)
        }
    }
}
