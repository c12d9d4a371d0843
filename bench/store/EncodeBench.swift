import Foundation
import PetCore
import PetStore

/// The state file's encoding alone, at the load test's size (about 150 tasks, some done or
/// snoozed, a few templates and rest days: `state.json` about 25 KB). Each round times 200
/// encodes and prints one line, `encode BYTES MEDIAN_US MIN_US`, so that two builds (before and
/// after a change) can be run alternately, A B A B, by a script.
enum EncodeBench {
    static func run(rounds: Int) throws {
        let world = try loadSizedWorld()
        let size = PetStore.stateBytes(world).count
        for _ in 0..<20 { _ = PetStore.stateBytes(world) }  // warm up
        for _ in 0..<rounds {
            var samples: [Double] = []
            for _ in 0..<200 {
                let t0 = DispatchTime.now().uptimeNanoseconds
                let bytes = PetStore.stateBytes(world)
                samples.append(Double(DispatchTime.now().uptimeNanoseconds - t0) / 1000)
                precondition(bytes.count == size)
            }
            samples.sort()
            print(String(format: "encode %d %.2f %.2f", size, samples[samples.count / 2], samples[0]))
        }
    }

    /// The state file of the bench world and of a hostile one (every escape, extreme numbers),
    /// to stdout: two builds' outputs must be the same bytes.
    static func dump() throws {
        let bytes = PetStore.stateBytes(try loadSizedWorld()) + PetStore.stateBytes(try hostileWorld())
        FileHandle.standardOutput.write(Data(bytes))
    }

    /// Titles with every kind of escape and non-ASCII text, extreme numbers, a snapshot.
    static func hostileWorld() throws -> PetWorld {
        var w = try loadSizedWorld()
        var scalars = (0..<0x80).map { String(UnicodeScalar(UInt8($0))) }.joined()
        scalars += "\u{2028}\u{2029}\u{FEFF}é🐸👩‍👩‍👧🇩🇪e\u{301}/</\\\""
        for (n, title) in [scalars, String(repeating: scalars, count: 12), "", "\\/\""].enumerated() {
            var t = w.tasks[n]
            t.title = title
            t.completedAt = n % 2 == 0 ? Int64.min : Int64.max
            t.completedSeq = UInt64.max
            t.xp = n % 2 == 0 ? Int.min : Int.max
            t.templateID = title
            t.repeatRule = .days([.monday, .sunday])
            w.tasks[n] = t
        }
        w.mutations = UInt64.max
        w.lastClosedDay = CivilDate(year: 9999, month: 12, day: 31)
        w.snapshot = VisibleSnapshot(tick: -1, pet: PetState(stageIndex: Int.max, stageXP: Int.min))
        return w
    }

    /// 150 tasks on one day (about a third done, some snoozed, titles of varied length with a few
    /// non-ASCII ones), 3 templates, 2 rest days, a snapshot.
    static func loadSizedWorld() throws -> PetWorld {
        let day = CivilDate(year: 2026, month: 3, day: 2)!
        let now = Instant(day.daysSinceEpoch) * 86_400 + 300
        var ctx = Context(now: now, zone: .utc)
        var w = PetWorld(now: now, zone: .utc)
        _ = w.catchUp(ctx, startingUp: true)
        let words = ["water the plants", "write to Zoë", "tidy the desk", "review PR #42 \"encoder\"", "run 5 km"]
        for n in 0..<150 {
            let title = "Task \(n): " + words[n % words.count] + String(repeating: " and more", count: n % 4)
            let id = try w.addTask(title: title, time: String(format: "%02d:%02d", 1 + n % 22, n % 60), ctx)
            if n % 3 == 0 { _ = try w.markDone(id: id, ctx) } else if n % 7 == 0 { _ = try w.snooze(id: id, ctx) }
        }
        for rule in ["daily", "weekdays", "mon,wed,fri"] {
            try w.addTask(title: "Recurring \(rule)", time: "08:00", day: "tomorrow", repeat: rule, ctx)
        }
        ctx.now += 60
        try w.setRest(from: "2026-03-10", to: "2026-03-11", rest: true, ctx)
        return w
    }
}
