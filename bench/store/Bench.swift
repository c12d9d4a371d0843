import Foundation
import Glibc
import PetCore
import PetStore

enum Bench {
    static func run(root: String, rounds: Int) throws {
        let (world, records) = synthesize(years: 10)
        let empty = root + "/empty"
        let one = root + "/oneday"
        let full = root + "/tenyears"
        try prepare(empty, world: world, records: [])
        try prepare(one, world: world, records: Array(records.suffix(1)))
        try prepare(full, world: world, records: records)
        let historyBytes = (try FileManager.default.contentsOfDirectory(atPath: full))
            .filter { $0.hasPrefix("history-") }
            .reduce(0) {
                $0 + ((try? FileManager.default.attributesOfItem(atPath: full + "/" + $1)[.size] as? Int) ?? 0)
            }
        print(
            "history: \(records.count) days in 10 year files, \(historyBytes / 1024) KiB; state: \(stateSize(full)) bytes"
        )

        let (e, f) = try measurePair(rounds, { try openLoad(empty) }, { try openLoad(full) })
        print(line("open + load, empty history", e))
        print(line("open + load, 10 years of history", f))
        print(String(format: "ratio (10 years / empty), medians: %.3f (target <= 1.1)", f.median / e.median))
        let (o, f2) = try measurePair(rounds, { try openLoad(one) }, { try openLoad(full) })
        print(line("open + load, 1 day of history", o))
        print(line("open + load, 10 years of history", f2))
        print(String(format: "ratio (10 years / 1 day), medians: %.3f", f2.median / o.median))

        try historyPages(root: root, world: world, records: records, rounds: rounds)

        let store = try PetStore.open(directory: full)
        _ = try store.load(now: Int64(Glibc.time(nil)))
        var w = world
        let size = stateSize(full)
        let (save, bare) = try measurePair(
            rounds,
            {
                w.mutations += 1
                try store.save(w)
            }, { try bareReplace(dir: root, size: size) })
        store.close()
        print(line("durable save (PetStore.save, \(size) B)", save))
        print(line("bare write+fsync+rename+dir fsync, same size", bare))
        print(String(format: "ratio (save / bare), medians: %.3f (target <= 1.5)", save.median / bare.median))
    }

    /// A world with a typical day on it, and `years` of closed days before it (5–8 tasks each).
    static func synthesize(years: Int) -> (PetWorld, [DayRecord]) {
        let first = CivilDate(year: 2016, month: 1, day: 1)!
        var now = Instant(first.daysSinceEpoch) * 86_400 + 7 * 3600
        var w = PetWorld(now: now, zone: .utc)
        var records: [DayRecord] = []
        let days = years * 365 + years / 4
        for d in 0...days {
            let ctx = Context(now: now, zone: .utc)
            for n in 0..<(5 + d % 4) {
                let id = try? w.addTask(
                    title: "Daily task number \(n) of a long and busy day", time: "\(10 + n):30", ctx)
                if n % 3 != 2, let id {
                    _ = try? w.markDone(id: id, Context(now: now + Instant(3 + n) * 3600, zone: .utc))
                }
            }
            if d == days { break }
            now += 86_400
            records += w.closeDueDays(Context(now: now, zone: .utc)).compactMap(\.record)
        }
        return (w, records)
    }

    static func prepare(_ dir: String, world: PetWorld, records: [DayRecord]) throws {
        try? FileManager.default.removeItem(atPath: dir)
        let store = try PetStore.open(directory: dir)
        _ = try store.load(now: Int64(Glibc.time(nil)))
        if records.isEmpty { try store.save(world) } else { try store.closeDays(records, world: world) }
        store.close()
    }

    /// `GetHistory`'s read (the 31 latest days, then a page ending at a year's start) with 10
    /// years of history and with only the last 400 days: the store reads only the year files a
    /// page needs, so the two should cost the same.
    static func historyPages(root: String, world: PetWorld, records: [DayRecord], rounds: Int) throws {
        let recent = root + "/recentonly"
        try prepare(recent, world: world, records: Array(records.suffix(400)))
        let full = try PetStore.open(directory: root + "/tenyears")
        let short = try PetStore.open(directory: recent)
        defer {
            full.close()
            short.close()
        }
        _ = try full.load(now: Int64(Glibc.time(nil)))
        _ = try short.load(now: Int64(Glibc.time(nil)))
        guard let last = records.last?.day.key else { return }
        let latest = HistoryRange(from: nil, to: nil)
        let januaryFirst = CivilDate(year: last.year, month: 1, day: 1) ?? last
        let boundary = HistoryRange(from: nil, to: januaryFirst.adding(days: 10))
        for (what, range) in [("latest 31", latest), ("31 up to \(januaryFirst.adding(days: 10))", boundary)] {
            let (f, r) = try measurePair(
                rounds, { _ = try full.history(in: range) }, { _ = try short.history(in: range) })
            print(line("history page, \(what), 10 years", f))
            print(line("history page, \(what), last 400 days", r))
            print(String(format: "ratio (10 years / 400 days), medians: %.3f", f.median / r.median))
        }
    }

    static func openLoad(_ dir: String) throws {
        let store = try PetStore.open(directory: dir)
        let loaded = try store.load(now: Int64(Glibc.time(nil)))
        guard case .state = loaded.start else { throw CancellationError() }
        store.close()
    }

    /// The floor a durable replace cannot beat: the same bytes, written, fsynced, renamed, and
    /// the directory fsynced.
    static func bareReplace(dir: String, size: Int) throws {
        let bytes = [UInt8](repeating: 0x61, count: size)
        let tmp = dir + "/bare.tmp"
        let dst = dir + "/bare.json"
        let fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw POSIXError(.EIO) }
        guard bytes.withUnsafeBytes({ write(fd, $0.baseAddress, size) }) == size, fsync(fd) == 0 else {
            throw POSIXError(.EIO)
        }
        close(fd)
        guard rename(tmp, dst) == 0 else { throw POSIXError(.EIO) }
        let dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard dfd >= 0, fsync(dfd) == 0 else { throw POSIXError(.EIO) }
        close(dfd)
    }

    struct Stats {
        var median: Double
        var p90: Double
        var min: Double
    }

    /// Times two bodies alternately, so a busy moment on a shared machine hits both alike.
    static func measurePair(_ rounds: Int, _ a: () throws -> Void, _ b: () throws -> Void) rethrows -> (Stats, Stats) {
        for _ in 0..<10 {  // warm up
            try a()
            try b()
        }
        var sa: [Double] = []
        var sb: [Double] = []
        for _ in 0..<rounds {
            sa.append(try time(a))
            sb.append(try time(b))
        }
        return (stats(sa), stats(sb))
    }

    static func time(_ body: () throws -> Void) rethrows -> Double {
        let t0 = DispatchTime.now().uptimeNanoseconds
        try body()
        return Double(DispatchTime.now().uptimeNanoseconds - t0) / 1000
    }

    static func stats(_ samples: [Double]) -> Stats {
        let s = samples.sorted()
        return Stats(median: s[s.count / 2], p90: s[s.count * 9 / 10], min: s[0])
    }

    static func line(_ what: String, _ s: Stats) -> String {
        what.padding(toLength: 50, withPad: " ", startingAt: 0)
            + String(format: "median %8.1f us   p90 %8.1f us   min %8.1f us", s.median, s.p90, s.min)
    }

    static func stateSize(_ dir: String) -> Int {
        (try? FileManager.default.attributesOfItem(atPath: dir + "/state.json")[.size] as? Int) ?? 0
    }

    static func makeTemp() -> String {
        var template = Array("/tmp/bench-store-XXXXXX".utf8CString)
        return template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)) }
    }
}
