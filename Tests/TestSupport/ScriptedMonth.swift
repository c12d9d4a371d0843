import Foundation
import Testing

/// A month lived through the real daemon, one start a day (`--now` at 09:00 in Berlin), for
/// `petctl history` and `export`: Sunday 2026-02-01 to Sunday 2026-03-01 closed, Monday
/// 2026-03-02 open with 1 of 2 tasks done. The daemon of the open day is left running.
public enum ScriptedMonth {
    /// What one day held. Tasks are at 09:00, 09:10, …, done at about 09:00 (on time) unless said.
    public enum Kind: Sendable {
        /// 2 tasks, both done: +4, +3.
        case full
        /// 5 tasks, 4 done (80 %): +8, −2, +3.
        case high
        /// 2 tasks, 1 done (50 %): +2, −2.
        case middle
        /// 3 tasks, none done: −6, −3.
        case low
        /// A rest day: 2 tasks, 1 done: +2, nothing charged.
        case rest
        /// 1 task at 20:00 done at 09:00, outside the grace window: +1, +3.
        case late
        /// The daemon ran, no tasks: a record with none.
        case empty
        /// The daemon did not run and there were no tasks: no record.
        case off
    }

    public static let days: [Kind] = [
        .full, .high,  // 1–2 Feb, before the 28 days that end on 2 March
        .full, .middle, .low, .high, .rest, .off,  // Tue 3 – Sun 8
        .full, .late, .empty, .high, .full, .rest, .rest,  // Mon 9 – Sun 15 (14–15 marked on the 13th)
        .middle, .low, .full, .high, .full, .off, .off,  // Mon 16 – Sun 22
        .high, .full, .low, .low, .full, .high, .middle,  // Mon 23 – Sun 1 Mar
    ]

    /// The key of day `n` (0 = 2026-02-01).
    public static func key(_ n: Int) -> String { n < 28 ? "2026-02-\(n < 9 ? "0" : "")\(n + 1)" : "2026-03-0\(n - 27)" }

    /// Lives the month in `data`; returns the open day's daemon.
    public static func live(_ world: World, data: String) async throws -> PetDaemon {
        for (n, kind) in days.enumerated() where kind != .off {
            let daemon = try await world.daemon(dataDirectory: data, now: "\(key(n))T09:00:00+01:00")
            try play(kind, on: n, try world.client())
            #expect(await daemon.stop() == 0)
        }
        let today = try await world.daemon(dataDirectory: data, now: "2026-03-02T09:00:00+01:00")
        let client = try world.client()
        _ = try client.markDone(try client.addTask("Stretch", "09:00"))
        _ = try client.addTask("Read", "21:00")
        return today
    }

    public static func play(_ kind: Kind, on n: Int, _ client: RawClient) throws {
        let (total, done): (Int, Int) =
            switch kind {
            case .full: (2, 2)
            case .high: (5, 4)
            case .middle, .rest: (2, 1)
            case .low: (3, 0)
            case .late: (1, 1)
            case .empty, .off: (0, 0)
            }
        if kind == .rest, key(n) != "2026-02-14", key(n) != "2026-02-15" { try client.setRest("today", "today", true) }
        if key(n) == "2026-02-13" { try client.setRest("2026-02-14", "2026-02-15", true) }
        let ids = try (0..<total).map { i in
            try client.addTask("Task \(i + 1)", kind == .late ? "20:00" : "09:\(i)0")
        }
        for id in ids.prefix(done) { _ = try client.markDone(id) }
    }
}
