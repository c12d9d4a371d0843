import DBusKit
import Foundation
import PetCore
import TestSupport

/// The soak's simulated user: seeded random calls every 20–200 ms on its own thread until
/// stopped. Any answer but a D-Bus error of the daemon's own interface (a lost reply, a timeout,
/// an unknown method) is a failure.
final class SoakUser: @unchecked Sendable {
    private let client: RawClient
    private var random: SplitMix64
    private let lock = NSLock()
    private var stopping = false
    private var done = false
    private var failed: [String] = []
    private var made = 0

    init(client: RawClient, seed: UInt64) {
        self.client = client
        random = SplitMix64(seed: seed)
    }

    var failures: [String] { lock.withLock { failed } }
    var calls: Int { lock.withLock { made } }
    var stopped: Bool { lock.withLock { done } }

    func stop() { lock.withLock { stopping = true } }

    func run() {
        defer { lock.withLock { done = true } }
        while !lock.withLock({ stopping }) {
            let (member, arguments) = nextCall()
            do {
                try client.call(member, arguments)
            } catch let error as DBusError where error.name.hasPrefix("io.petprogress.PetProgress1.Error.") {
                // NothingPending, a snooze too late in the day, a full day: answers, not failures.
            } catch {
                lock.withLock { failed.append("\(member): \(error)") }
            }
            lock.withLock { made += 1 }
            usleep(UInt32.random(in: 20_000...200_000, using: &random))
        }
    }

    private func nextCall() -> (String, [DBusValue]) {
        let hour = Int.random(in: 0..<24, using: &random)
        let minute = [0, 15, 30, 45].randomElement(using: &random) ?? 0
        let time = String(format: "%02d:%02d", hour, minute)
        switch Int.random(in: 0..<10, using: &random) {
        case 0, 1: return ("AddTask", [.string("Soak \(Int.random(in: 0..<1000, using: &random))"), .string(time)])
        case 2, 3: return ("MarkNextDone", [])
        case 4: return ("SnoozeNext", [])
        case 5: return ("GetTimeline", [])
        case 6: return ("GetHistory", [.string(""), .string("")])
        case 7: return ("ListTasks", [.string("")])
        default: return ("GetWidgetEntry", [])
        }
    }
}
