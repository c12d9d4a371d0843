import Foundation
import PetCore
import Testing

@testable import PetStore

@Suite struct QuarantineTests {
    static let validState: String = {
        let world = Fixture.world(closedThrough: Fixture.day("2026-03-01"), mutations: 4)
        return String(decoding: StateFile.encode(world), as: UTF8.self)
    }()

    @Test(arguments: [
        ("empty", "", "the file is empty"),
        ("truncated", String(validState.prefix(validState.count / 2)), "not valid JSON"),
        ("garbage", "\u{7}\u{0}ELF\u{1}binary noise", "not valid JSON"),
        ("zeros", String(repeating: "\u{0}", count: 4096), "not valid JSON"),
        ("wrong shape", #"{"tasks":[1,2,3],"hello":"world"}"#, "no \"schema\" version"),
        ("a JSON array", "[1,2,3]", "no \"schema\" version"),
        ("schema 4, wrong world", #"{"schema":4,"world":{"tasks":"none"}}"#, "do not fit the schema 4 state"),
        ("schema 1, wrong world", #"{"schema":1,"world":{"tasks":"none"}}"#, "schema 1 contents could not be migrated"),
        ("unknown old schema", #"{"schema":-3,"world":{}}"#, "not one this version can migrate"),
    ])
    func anUnparsableStateIsSetAsideWithItsBytesKept(kind: String, contents: String, reason: String) throws {
        let dir = TempDir()
        do {  // some history, whose last day an empty start must adopt
            let (store, _) = try openLoaded(dir.store)
            let d = Fixture.day("2026-02-27")
            try store.closeDays([Fixture.record(d)], world: Fixture.world(closedThrough: d))
            store.close()
        }
        write(contents, to: dir.file("state.json"))

        let (store, loaded) = try openLoaded(dir.store, now: 1_772_438_400)
        // The closeout's snapshot is the start (petprogress(7) §5).
        #expect(loaded.start == .state(Fixture.world(closedThrough: Fixture.day("2026-02-27"))), "\(kind)")
        let moved = try #require(loaded.quarantinedTo)
        #expect(moved == dir.file("state.json.corrupt-20260302T080000Z"))
        #expect(bytes(moved) == Array(contents.utf8), "the original bytes are kept")
        #expect(!FileManager.default.fileExists(atPath: dir.file("state.json")))
        #expect(loaded.problems.count == 1)
        let problem = loaded.problems[0]
        #expect(
            problem.contains(dir.file("state.json")) && problem.contains(moved) && problem.contains(reason),
            "\(problem)")

        // The empty start saves over nothing, and a second quarantine the same second gets its own name.
        try store.save(Fixture.world(closedThrough: Fixture.day("2026-02-27")))
        store.close()
        write(contents, to: dir.file("state.json"))
        let (_, again) = try openLoaded(dir.store, now: 1_772_438_400)
        #expect(again.quarantinedTo == dir.file("state.json.corrupt-20260302T080000Z-1"))
        #expect(bytes(moved) == Array(contents.utf8))
    }

    /// Found by LoaderFuzzTests: `"lastClosedDay": null` in a state file whose history
    /// record names 2026-03-01 loaded as a world with no closed day, and every save after it was
    /// refused ("would drop history"). Such a file contradicts itself: it is set aside, and the
    /// empty start adopts history's last day, keeping every record.
    @Test(arguments: ["null", #""2026-02-20""#])
    func aStateWhoseLastClosedDayIsBeforeItsHistoryIsSetAside(lastClosedDay: String) throws {
        let dir = TempDir()
        do {
            let (store, _) = try openLoaded(dir.store)
            let days = ["2026-02-27", "2026-02-28", "2026-03-01"].map(Fixture.day)
            try store.closeDays(days.map { Fixture.record($0) }, world: Fixture.world(closedThrough: days[2]))
            store.close()
        }
        let history = bytes(dir.file("history-2026.jsonl"))
        let valid = String(decoding: bytes(dir.file("state.json")) ?? [], as: UTF8.self)
        let damaged = valid.replacingOccurrences(
            of: #""lastClosedDay":"2026-03-01""#, with: #""lastClosedDay":"# + lastClosedDay)
        #expect(damaged != valid)
        write(damaged, to: dir.file("state.json"))

        let (store, loaded) = try openLoaded(dir.store, now: 1_772_438_400)
        #expect(loaded.start == .state(Fixture.world(closedThrough: Fixture.day("2026-03-01"))), "the snapshot")
        #expect(loaded.problems.first?.contains("before the last day of history it records (2026-03-01)") == true)
        #expect(bytes(try #require(loaded.quarantinedTo)) == Array(damaged.utf8))
        #expect(bytes(dir.file("history-2026.jsonl")) == history, "history untouched")
        try store.save(Fixture.world(closedThrough: Fixture.day("2026-03-01")))
        store.close()
    }

    @Test func aValidStateWithUnknownKeysIsNotQuarantined() throws {
        // Later builds may add keys; the store's reader ignores what it does not know.
        let dir = TempDir()
        try FileManager.default.createDirectory(atPath: dir.store, withIntermediateDirectories: true)
        let extended = Self.validState.replacingOccurrences(
            of: #""mutations":4"#, with: #""mutations":4,"futureKey":{"a":1}"#)
        #expect(extended != Self.validState)
        write(extended, to: dir.file("state.json"))
        let (_, loaded) = try openLoaded(dir.store)
        #expect(loaded.start == .state(Fixture.world(closedThrough: Fixture.day("2026-03-01"), mutations: 4)))
        #expect(loaded.quarantinedTo == nil)
    }
}
