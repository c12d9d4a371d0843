import DBusKit
import Foundation
import Testing

extension DBusKitSuites {
    /// 100,000 calls with flat memory, in the client (this process) and in the service.
    @Suite("Leaks")
    struct LeakTests {
        @Test func hundredThousandCallsKeepMemoryFlat() throws {
            let fixture = try BusFixture()
            let record = DBusValue.vardict([
                ("text", .string("x")), ("list", .stringArray(["a", "b"])), ("n", .uint64(1)),
            ])
            var clientAfter10k = 0
            var serviceAfter10k: UInt64 = 0
            let started = Date()
            for index in 1...100_000 {
                _ = try fixture.call(
                    index % 2 == 0 ? "Echo" : "EchoString", index % 2 == 0 ? [record] : [.string("ping")])
                if index == 10_000 {
                    clientAfter10k = residentKiB()
                    serviceAfter10k = try fixture.call("ResidentKiB").first?.uint64Value ?? 0
                }
            }
            let clientAfter100k = residentKiB()
            let serviceAfter100k = try fixture.call("ResidentKiB").first?.uint64Value ?? 0
            print(
                """
                DBusKit leak check: 100,000 calls in \(String(format: "%.1f", Date().timeIntervalSince(started))) s; \
                client RSS \(clientAfter10k) KiB after 10k, \(clientAfter100k) KiB after 100k; \
                service RSS \(serviceAfter10k) KiB after 10k, \(serviceAfter100k) KiB after 100k
                """)
            // Generous bounds: a leak of even 100 bytes per call would add ~9 MB over the last 90,000 calls; 6 MiB leaves room for the test runner.
            #expect(clientAfter100k < clientAfter10k + 6144)
            #expect(serviceAfter100k < serviceAfter10k + 6144)
        }

        private func residentKiB() -> Int {
            guard let statm = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return 0 }
            let fields = statm.split(separator: " ")
            guard fields.count > 1, let pages = Int(fields[1]) else { return 0 }
            return pages * Int(sysconf(Int32(_SC_PAGESIZE))) / 1024
        }
    }
}
