import Foundation
import TestSupport
import Testing

extension Reliability {
    /// Floods (docs/RELIABILITY.md, "Bus attacks"): two clients each send GetTimeline calls as fast as
    /// they can and never read a byte of the replies, on a bus with the session bus's limits,
    /// against a daemon with 150 tasks (a 14 KB timeline). The daemon stays under 64 MiB, is back
    /// within 2 MiB of where it started a few seconds after they leave, and another client's
    /// `GetWidgetEntry` is answered meanwhile, nine calls in ten within 100 ms.
    ///
    /// Twice: with the session bus's 50,000 calls awaiting a reply per connection, and with the
    /// system bus's 128. dbus-daemon walks its whole list of awaited replies for every call it
    /// forwards (bus/connection.c, `bus_connections_expect_reply`), and it accepts the flooders'
    /// calls faster than it hands them to the daemon and takes the answers back (2 KiB per
    /// connection per turn of its loop), so at the full size with 50,000 that walk takes the bus's
    /// whole core for seconds and every other caller waits in it, whatever the daemon does: there
    /// the latency is measured and reported, not bounded, at every size; with 128 the bus refuses a flooder's
    /// 129th waiting call itself and the bound holds.
    @Suite("Floods")
    struct FloodTests {
        static let calls = ReliabilityRun.size(fast: 5_000, full: 25_000)

        /// A client that never reads: raw socket, EXTERNAL authentication, Hello, CALLS
        /// GetTimeline calls in one write, then it holds the connection for HOLD seconds.
        static let flooder = """
            import os, socket, struct, sys, time
            address, calls, hold = sys.argv[1], int(sys.argv[2]), float(sys.argv[3])
            params = dict(p.split("=", 1) for p in address.split(":", 1)[1].split(","))
            sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            sock.connect(params["path"] if "path" in params else "\\0" + params["abstract"])
            sock.sendall(b"\\0AUTH EXTERNAL " + str(os.getuid()).encode().hex().encode() + b"\\r\\n")
            reply = b""
            while not reply.endswith(b"\\r\\n"):
                reply += sock.recv(1)
            assert reply.startswith(b"OK"), reply
            sock.sendall(b"BEGIN\\r\\n")
            def pad(data, n):
                return data + b"\\0" * (-len(data) % n)
            def call(serial, destination, path, interface, member):
                fields = b""
                for code, sig, value in ((1, "o", path), (2, "s", interface), (3, "s", member), (6, "s", destination)):
                    entry = bytes([code, len(sig)]) + sig.encode() + b"\\0"
                    fields = pad(fields, 8) + pad(entry, 4) + struct.pack("<I", len(value)) + value.encode() + b"\\0"
                return pad(struct.pack("<BBBBIII", ord("l"), 1, 0, 1, 0, serial, len(fields)) + fields, 8)
            bus = ("org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus")
            sock.sendall(call(1, *bus, "Hello"))
            pet = ("io.petprogress.PetProgress1", "/io/petprogress/PetProgress1", "io.petprogress.PetProgress1")
            sock.sendall(b"".join(call(serial, *pet, "GetTimeline") for serial in range(2, calls + 2)))
            time.sleep(hold)
            """

        @Test(
            "two clients flooding GetTimeline without reading: bounded, given back, others answered",
            arguments: [50_000, 128])
        func flood(pendingReplies: Int) async throws {
            let world = try await World("flood-\(pendingReplies)", sessionLimits: true, pendingReplies: pendingReplies)
            defer { world.close() }
            let daemon = try await world.daemon(now: "2026-03-02T00:05:00+01:00")
            let client = try world.client()
            for i in 0..<150 {
                _ = try client.addTask(
                    "Task number \(i) with a longer title", String(format: "%02d:%02d", 6 + i / 60, i % 60))
            }
            let pid = daemon.process.pid
            for _ in 0..<20 { _ = try client.call("GetTimeline") }
            let residentBefore = try #require(ProcessMemory.resident(pid))
            let hold = ReliabilityRun.size(fast: 2, full: 5)
            let flooders = try (0..<2).map { index in
                try world.sandbox.spawn(
                    "/usr/bin/python3", ["-c", Self.flooder, world.bus.address, String(Self.calls), String(hold)],
                    environment: world.bus.environment, label: "flooder-\(index)")
            }
            var latencies: [Double] = []
            var residentPeak = residentBefore
            let started = ContinuousClock.now
            while flooders.contains(where: \.isRunning), ContinuousClock.now - started < .seconds(600) {
                let before = ContinuousClock.now
                _ = try client.entry()
                let elapsed = ContinuousClock.now - before
                latencies.append(
                    Double(elapsed.components.attoseconds) / 1e15 + Double(elapsed.components.seconds) * 1e3)
                residentPeak = max(residentPeak, ProcessMemory.resident(pid) ?? 0)
                try await Task.sleep(for: .milliseconds(50))
            }
            let peak = try #require(ProcessMemory.peak(pid))
            var residentAfter = ProcessMemory.resident(pid) ?? 0
            _ = await poll(timeout: .seconds(5)) {
                _ = try? client.entry()
                residentAfter = ProcessMemory.resident(pid) ?? 0
                return residentAfter <= residentBefore + 2048
            }
            let sorted = latencies.sorted()
            let median = sorted.isEmpty ? 0 : sorted[sorted.count / 2]
            let slowest = sorted.last ?? 0
            #expect(peak < 64 * 1024, "peak \(peak) KiB")
            #expect(residentAfter <= residentBefore + 2048, "\(residentBefore) KiB before, \(residentAfter) KiB after")
            // Nine calls in ten within 100 ms: the slowest (at the flood's first instants, while the
            // bus forwards the whole burst) is reported, not bounded (docs/RELIABILITY.md, "Bus attacks").
            // Not bounded at all on the session bus's 50,000 awaited replies, at any size: the time
            // goes to the bus's walk of that list (above); a quiet CI run saw 2.4 s at 2 × 5,000.
            let ninetieth = sorted.isEmpty ? 0 : sorted[sorted.count * 9 / 10]
            let bounded = pendingReplies <= 128
            let latencyLine =
                "GetWidgetEntry during the flood (\(pendingReplies) awaited replies per connection): median \(median) ms, "
                + "90th percentile \(ninetieth) ms, slowest \(slowest) ms, in order: \(latencies.map { Int($0) })"
            print(latencyLine)
            if bounded {
                #expect(latencies.count >= 10, "\(latencyLine)")
                #expect(ninetieth < 100, "\(latencyLine)")
            }
            #expect(daemon.process.isRunning)
            try ReliabilityRun.fragment(
                "65-flood-\(pendingReplies)",
                """
                ## Floods, \(pendingReplies) awaited replies per connection

                `FloodTests.flood`, \(ReliabilityRun.daemonBuild), on a bus with the session bus's limits\(pendingReplies == 50_000 ? "" : " but the system bus's \(pendingReplies) calls awaiting a reply per connection"): two clients each send \(Self.calls) `GetTimeline` calls (150 tasks: a 14 KB reply) in one write and never read a byte, then hold their connections \(hold) s. Another client calls `GetWidgetEntry` every 50 ms meanwhile.

                | | |
                | --- | --- |
                | resident before | \(residentBefore) KiB |
                | peak (VmHWM) | \(peak) KiB (bound 65536) |
                | resident a few seconds after they left | \(residentAfter) KiB (bound: before + 2048) |
                | `GetWidgetEntry` during the flood: calls, median, 90th percentile, slowest | \(latencies.count), \(ReliabilityRun.format(median)) ms, \(ReliabilityRun.format(ninetieth)) ms (\(bounded ? "bound 100" : "not bounded: the bus's walk of its awaited replies"), \(ReliabilityRun.format(slowest)) ms |

                """)
        }
    }
}
