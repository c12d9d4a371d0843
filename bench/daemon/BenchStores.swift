import Foundation
import Glibc
import PetCore
import PetStore

/// The stores the daemon starts on, written through the real `PetStore` (its own format).
extension DaemonBench {
    /// A world open on the bench's `now` with a day of six tasks (10:30 to 15:30, four done early),
    /// and `days` closed days of the same before it.
    static func synthesize(days: Int) -> (PetWorld, [DayRecord]) {
        let end = ISO8601DateFormatter().date(from: benchNow).map { Instant($0.timeIntervalSince1970) } ?? 0
        var t = end - Instant(days) * 86_400
        var world = PetWorld(now: t, zone: .utc)
        var records: [DayRecord] = []
        while true {
            let ctx = Context(now: t, zone: .utc)
            for n in 0..<6 {
                let id = try? world.addTask(title: "Task \(n) of a busy day", time: "\(10 + n):30", ctx)
                if n % 3 != 2, let id { _ = try? world.markDone(id: id, ctx) }
            }
            guard t + 86_400 <= end else { break }
            t += 86_400
            records += world.closeDueDays(Context(now: t, zone: .utc)).compactMap(\.record)
        }
        return (world, records)
    }

    /// Writes `world` and `records` into a fresh store at `dir`.
    static func prepare(_ dir: String, world: PetWorld, records: [DayRecord]) throws {
        try? FileManager.default.removeItem(atPath: dir)
        let store = try PetStore.open(directory: dir)
        _ = try store.load(now: Int64(Glibc.time(nil)))
        if records.isEmpty { try store.save(world) } else { try store.closeDays(records, world: world) }
        store.close()
    }
}
