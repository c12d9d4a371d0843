import DBusKit
import Foundation
import TestSupport

/// One client writing as fast as the daemon acknowledges until its bus dies: adds tasks
/// `W<index>-<n>` at 09:00, marks each done, and once it holds 40 toggles the last one with
/// undo and done. It keeps what was acknowledged, and the one call the dead bus cut off.
final class BusLossWriter: @unchecked Sendable {
    enum Change: Equatable {
        case add(title: String)
        case done(id: String)
        case undo(id: String)
    }

    let prefix: String
    private let client: RawClient
    /// Acknowledged: task id → (title, done).
    private(set) var tasks: [String: (title: String, done: Bool)] = [:]
    private(set) var order: [String] = []
    private(set) var acknowledged = 0
    /// The call in flight when the bus went, whose fate only the store knows.
    private(set) var cutOff: Change?
    private let finished = DispatchSemaphore(value: 0)

    init(client: RawClient, index: Int) {
        self.client = client
        prefix = "W\(index)-"
    }

    func start() {
        Thread { [self] in
            defer { finished.signal() }
            var n = 0
            while cutOff == nil {
                n += 1
                step(n)
            }
        }.start()
    }

    /// Waits until the writer has stopped (its bus is gone).
    func wait() { finished.wait() }

    private func step(_ n: Int) {
        let change: Change
        if order.count < 40 {
            change = n % 2 == 1 ? .add(title: prefix + "\(n)") : .done(id: order.last ?? "")
        } else if let last = order.last, let task = tasks[last] {
            change = task.done ? .undo(id: last) : .done(id: last)
        } else {
            return
        }
        do {
            switch change {
            case .add(let title):
                let id = try client.addTask(title, "09:00")
                tasks[id] = (title, false)
                order.append(id)
            case .done(let id):
                _ = try client.markDone(id)
                tasks[id]?.done = true
            case .undo(let id):
                try client.call("Undo", [.string(id)])
                tasks[id]?.done = false
            }
            acknowledged += 1
        } catch {
            cutOff = change
        }
    }

    /// Compares the daemon's `records` (all tasks) with what this writer knows: every acknowledged
    /// change there, the cut-off one whole or not at all. Returns the problem, or nil and whether
    /// the cut-off change was applied.
    func check(_ records: [[String: DBusValue]]) -> (problem: String?, applied: Bool) {
        let mine = records.filter { $0.string("title")?.hasPrefix(prefix) == true }
        var applied = false
        var expectedCount = tasks.count
        if case .add(let title) = cutOff, mine.contains(where: { $0.string("title") == title }) {
            applied = true
            expectedCount += 1
        }
        if mine.count != expectedCount { return ("\(prefix): \(mine.count) tasks, expected \(expectedCount)", applied) }
        for (id, task) in tasks {
            guard let record = mine.first(where: { $0.string("id") == id }) else {
                return ("\(prefix): acknowledged task \(id) \(task.title) is missing", applied)
            }
            let done = record.bool("done") ?? !task.done
            switch cutOff {
            case .done(let cut) where cut == id && done && !task.done,
                .undo(let cut) where cut == id && !done && task.done:
                applied = true
            default:
                if done != task.done {
                    return ("\(prefix): task \(id) done is \(done), acknowledged \(task.done)", applied)
                }
            }
            if done, record.int("xp") != 2 {
                return ("\(prefix): task \(id) done with \(record.int("xp") ?? -1) XP", applied)
            }
        }
        return (nil, applied)
    }
}
