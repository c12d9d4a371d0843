import Foundation
import Glibc
import PetCore
import Testing

@testable import PetStore

/// A fresh temporary directory, removed when the test is done with it.
final class TempDir {
    let path: String

    init() {
        var template = Array("/tmp/petstore-test-XXXXXX".utf8CString)
        path = template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)) }
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }

    /// A store directory inside it (not created yet: the store creates it).
    var store: String { path + "/data" }

    func file(_ name: String) -> String { store + "/" + name }
}

// File helpers open with O_CLOEXEC: tests run in parallel with the crash test's posix_spawn, and a
// child inheriting a descriptor would keep a file on the small tmpfs alive after it is removed.

/// A file's bytes, nil when it cannot be read.
func bytes(_ path: String) -> [UInt8]? {
    let fd = open(path, O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else { return nil }
    defer { close(fd) }
    var out: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 65536)
    while true {
        let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, 65536) }
        if n <= 0 { return n == 0 ? out : nil }
        out += chunk[0..<n]
    }
}

/// Replaces a file's contents (mode 0600 when created).
func write(_ text: String, to path: String) {
    let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
    guard fd >= 0 else { return }
    defer { close(fd) }
    let data = Array(text.utf8)
    _ = data.withUnsafeBytes { write(fd, $0.baseAddress, data.count) }
}

func names(_ dir: String) -> [String] { ((try? FileManager.default.contentsOfDirectory(atPath: dir)) ?? []).sorted() }

func mode(_ path: String) -> Int {
    var st = stat()
    guard stat(path, &st) == 0 else { return -1 }
    return Int(st.st_mode & 0o777)
}

/// Fixtures: instants, a zone, and worlds with every field set.
enum Fixture {
    static let zone = try! Zone(
        identifier: "Europe/Berlin",
        tzif: [UInt8](FileManager.default.contents(atPath: "/usr/share/zoneinfo/Europe/Berlin")!))
    /// 2026-03-02 09:00 in Berlin (a Monday).
    static let now: Instant = 1_772_438_400

    static func ctx(_ t: Instant = now) -> Context { Context(now: t, zone: zone) }

    /// A world whose encoding has every key, optional ones included: done, late, snoozed and
    /// recurring tasks, tomorrow's tasks, templates, changed settings, a last closed day.
    static func richWorld() throws -> PetWorld {
        var w = PetWorld(now: now, zone: zone, lastClosedDay: CivilDate(year: 2026, month: 3, day: 1))
        try w.setResetTime("04:00")
        try w.setGraceMinutes(45)
        try w.setSnoozeMinutes(20)
        w.setRollover(true)
        w.openingPet = PetState(stageIndex: 3, stageXP: 17)
        let a = try w.addTask(title: "Write report", time: "08:30", ctx())
        try w.addTask(title: "Walk ✨ the dog", time: "18:00", ctx())
        let c = try w.addTask(title: "Call Mum", time: "12:00", ctx())
        try w.addTask(title: "Stretch", time: "07:15", repeat: "weekdays", ctx())
        try w.addTask(title: "Plan the week", time: "10:00", day: "tomorrow", ctx())
        try w.markDone(id: a, ctx())
        try w.snooze(id: c, ctx(now + 3 * 3600))
        try w.setRest(from: "tomorrow", to: "2026-03-04", rest: true, ctx())
        return w
    }

    /// A closed day's record, made by a real closeout (UTC, midnight reset) of a day with
    /// `tasks` tasks, the first one done.
    static func record(_ key: DayKey, tasks: Int = 3) -> DayRecord {
        let nine = Instant(key.daysSinceEpoch) * 86_400 + 9 * 3600
        let ctx = Context(now: nine, zone: .utc)
        var w = PetWorld(now: nine, zone: .utc, lastClosedDay: key.adding(days: -1))
        for n in 0..<tasks {
            let id = try? w.addTask(title: "Task \(n)", time: "1\(n % 10):00", ctx)
            if n == 0, let id { _ = try? w.markDone(id: id, ctx) }
        }
        let closeouts = w.closeDueDays(Context(now: nine + 86_400, zone: .utc))
        guard let record = closeouts.first?.record else { fatalError("no record for \(key)") }
        return record
    }

    static func day(_ text: String) -> DayKey { CivilDate(parsing: text)! }

    /// A world whose last closed day is `key`.
    static func world(closedThrough key: DayKey?, mutations: UInt64 = 1) -> PetWorld {
        var w = PetWorld(now: now, zone: zone, lastClosedDay: key)
        w.mutations = mutations
        return w
    }
}

/// Opens and loads a store, for tests that do not care about the details (`now` names a
/// quarantined file).
func openLoaded(_ dir: String, now: Instant = Fixture.now) throws -> (PetStore, Loaded) {
    let store = try PetStore.open(directory: dir)
    return (store, try store.load(now: now))
}
