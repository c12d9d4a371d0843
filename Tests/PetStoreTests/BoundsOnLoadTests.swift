import Foundation
import PetCore
import Testing

@testable import PetStore

/// Every value read from a file is checked with the bus's bounds (petprogress(7) §5): a value out of
/// bounds makes the file damaged, exactly like one that cannot be parsed, and the reason names
/// the key. The golden files of the current schema are taken apart leaf by leaf (walked
/// generically, so a key added later is probed too) and each leaf is pushed out of bounds, one at
/// a time.
@Suite struct BoundsOnLoadTests {
    /// One value put in place of a leaf.
    struct Probe: CustomStringConvertible {
        let name: String
        let value: JSONValue
        var description: String { name }
    }

    static let numberProbes = [
        Probe(name: "-1", value: .integer(-1)),
        Probe(name: "2^31", value: .integer(1 << 31)),
        Probe(name: "year 10000", value: .integer(253_402_300_800)),
        Probe(name: "Int64.max", value: .integer(.max)),
        Probe(name: "Int64.min", value: .integer(.min)),
    ]
    static let stringProbes = [
        Probe(name: "empty", value: .string("")),
        Probe(name: "white space", value: .string(" \t ")),
        Probe(name: "201 code points", value: .string(String(repeating: "ä", count: 201))),
        Probe(name: "control character", value: .string("Gym\u{7}")),
        Probe(name: "10,000 characters", value: .string(String(repeating: "2026-03-09 ", count: 1000))),
    ]
    static let boolProbes = [
        Probe(name: "a number", value: .integer(2)),
        Probe(name: "a string", value: .string("true")),
    ]

    /// The reviewed list of probes that are within their field's bounds, by the leaf's key.
    /// Such a probe may load; if it does not, the reason must still name the key (an instant in
    /// 2038 is valid, but a day starting then ends before it starts).
    static let withinBounds: [String: Set<String>] = [
        // Instants run from 1970 to 9999: 2^31 seconds is in 2038.
        "start": ["2^31"], "end": ["2^31"], "scheduled": ["2^31"], "completedAt": ["2^31"],
        "snoozedUntil": ["2^31"], "tick": ["2^31"],
        // A day's XP change and its daily result are signed.
        "xpChange": ["-1"], "resultXP": ["-1"],
    ]

    /// A path to a leaf: object keys and array indexes.
    enum Step: CustomStringConvertible {
        case key(String)
        case index(Int)
        var description: String {
            switch self {
            case .key(let k): k
            case .index(let i): String(i)
            }
        }
    }

    static func leaves(_ value: JSONValue, at path: [Step] = []) -> [([Step], JSONValue)] {
        switch value {
        case .object(let o): o.sorted { $0.key < $1.key }.flatMap { leaves($0.value, at: path + [.key($0.key)]) }
        case .array(let a): a.enumerated().flatMap { leaves($0.element, at: path + [.index($0.offset)]) }
        default: [(path, value)]
        }
    }

    static func replacing(_ value: JSONValue, at path: ArraySlice<Step>, with new: JSONValue) -> JSONValue {
        guard let first = path.first else { return new }
        switch (first, value) {
        case (.key(let k), .object(var o)):
            o[k] = replacing(o[k] ?? .null, at: path.dropFirst(), with: new)
            return .object(o)
        case (.index(let i), .array(var a)):
            a[i] = replacing(a[i], at: path.dropFirst(), with: new)
            return .array(a)
        default: return value
        }
    }

    enum Outcome {
        case loaded
        case damaged(String)
        case newer
    }

    /// Each leaf of `document` with each probe of its kind: `decode` must call it damaged with
    /// a reason naming the leaf's key, unless the probe is within the key's bounds.
    func pushEveryLeaf(of document: JSONValue, _ decode: ([UInt8]) -> Outcome) -> Int {
        var probed = 0
        for (path, value) in Self.leaves(document) {
            guard case .key(let key)? = path.last else { continue }
            let probes: [Probe]
            switch value {
            case .integer, .number: probes = Self.numberProbes
            case .string: probes = Self.stringProbes
            case .bool: probes = Self.boolProbes
            default: probes = []
            }
            let location = path.map(\.description).joined(separator: ".")
            for probe in probes {
                probed += 1
                let outcome = decode(Self.replacing(document, at: path[...], with: probe.value).bytes)
                switch outcome {
                case .newer where key == "schema": continue  // a newer schema is refused, not damage
                case .damaged(let reason):
                    #expect(reason.contains(key), "\(location) = \(probe): the reason does not name it: \(reason)")
                case .loaded:
                    #expect(
                        Self.withinBounds[key]?.contains(probe.name) == true, "\(location) = \(probe) loaded")
                case .newer:
                    Issue.record("\(location) = \(probe) read as a newer schema")
                }
            }
        }
        return probed
    }

    static func golden(_ name: String) throws -> JSONValue {
        try #require(JSONValue.parse(Data(Golden.bytes("schema4", name))))
    }

    @Test func everyValueOfTheStateFileOutOfBoundsIsDamage() throws {
        let document = try Self.golden("state.json")
        guard case .world = StateFile.decode(document.bytes) else {
            Issue.record("the golden state does not load")
            return
        }
        let probed = pushEveryLeaf(of: document) { bytes in
            switch StateFile.decode(bytes) {
            case .world: .loaded
            case .newer: .newer
            case .unreadable(let why): .damaged(why)
            }
        }
        #expect(probed > 250)
    }

    @Test func everyValueOfAHistoryLineOutOfBoundsIsDamage() throws {
        let lines = Golden.bytes("schema4", "history-2026.jsonl").split(separator: UInt8(ascii: "\n"))
        #expect(lines.count == 2)
        var probed = 0
        for line in lines {
            let document = try #require(JSONValue.parse(Data(line)))
            guard case .record = HistoryLine.decode(document.bytes[...]) else {
                Issue.record("a golden history line does not load")
                continue
            }
            probed += pushEveryLeaf(of: document) { bytes in
                switch HistoryLine.decode(bytes[...]) {
                case .record: .loaded
                case .newer: .newer
                case .unreadable(let why): .damaged(why)
                }
            }
        }
        #expect(probed > 250)
    }

    /// The values a hostile file held when the loader trusted it (each crashed or spun the
    /// daemon): now damage, with the key named.
    static let attacks: [(key: String, golden: String, damaged: String)] = [
        ("serial", #""serial":17"#, #""serial":18446744073709551615"#),
        ("mutations", #""mutations":33"#, #""mutations":18446744073709551615"#),
        ("graceMinutes", #""graceMinutes":45"#, #""graceMinutes":9223372036854775807"#),
        ("start", #""start":1773023400"#, #""start":-9223372036854775808"#),
        ("stageXP", #""stageXP":4"#, #""stageXP":9223372036854775807"#),
        ("end", #""end":1773109800"#, #""end":9223372036854775807"#),
    ]

    @Test(arguments: attacks.map(\.key)) func anAttackValueIsDamageNamingItsKey(key: String) throws {
        let attack = try #require(Self.attacks.first { $0.key == key })
        let valid = String(decoding: Golden.bytes("schema4", "state.json"), as: UTF8.self)
        #expect(valid.components(separatedBy: attack.golden).count == 2, "one occurrence")
        let damaged = valid.replacingOccurrences(of: attack.golden, with: attack.damaged)

        guard case .unreadable(let why) = StateFile.decode(Array(damaged.utf8)) else {
            Issue.record("\(key): loaded")
            return
        }
        #expect(why.contains("\"world.") && why.contains(key), "\(why)")

        // Through the store: set aside as damaged, its bytes kept, with a problem naming the key.
        let dir = TempDir()
        try FileManager.default.createDirectory(atPath: dir.store, withIntermediateDirectories: true)
        write(damaged, to: dir.file("state.json"))
        let (store, loaded) = try openLoaded(dir.store, now: 1_773_046_800)
        defer { store.close() }
        let moved = try #require(loaded.quarantinedTo)
        #expect(bytes(moved) == Array(damaged.utf8))
        #expect(loaded.problems.contains { $0.contains(moved) && $0.contains(key) }, "\(loaded.problems)")
    }

    /// A stage index past the end of a shorter table in force is not damage: it loads, and
    /// reads as the final stage (petprogress(7) §2).
    @Test func aStageIndexPastAShorterTableLoadsAndIsClamped() throws {
        let valid = String(decoding: Golden.bytes("schema4", "state.json"), as: UTF8.self)
        let far = valid.replacingOccurrences(
            of: #""stageIndex":1,"stageXP":4"#, with: #""stageIndex":2147483647,"stageXP":4"#)
        #expect(far != valid)
        guard case .world(let world, nil, _) = StateFile.decode(Array(far.utf8)) else {
            Issue.record("not loaded")
            return
        }
        #expect(world.openingPet.stageIndex == 2_147_483_647)
        let short = try StageTable(stages: [
            Stage(i: 0, name: "Egg", threshold: 4, asset: "pet_egg.png"),
            Stage(i: 1, name: "Hen", threshold: 0, asset: "pet_hen.png"),
        ])
        #expect(short.clamp(world.openingPet) == PetState(stageIndex: 1, stageXP: 4))
        #expect(world.livePet(short).stageIndex == 1)
    }

    /// A history record out of bounds is damage to its line alone: like a line that does not
    /// parse, it is kept in the file and skipped by every reader, and its day still counts as
    /// recorded, so the day is never recorded twice (docs/DECISIONS.md).
    @Test func aHistoryRecordOutOfBoundsIsKeptAndSkipped() throws {
        let dir = TempDir()
        let days = ["2026-02-27", "2026-02-28", "2026-03-01"].map(Fixture.day)
        do {
            let (store, _) = try openLoaded(dir.store)
            try store.closeDays(days.map { Fixture.record($0) }, world: Fixture.world(closedThrough: days[2]))
            store.close()
        }
        let path = dir.file("history-2026.jsonl")
        var lines = String(decoding: bytes(path) ?? [], as: UTF8.self).split(separator: "\n").map(String.init)
        #expect(lines.count == 3)
        for i in [1, 2] {
            let damaged = lines[i].replacingOccurrences(of: #""total":3"#, with: #""total":-3"#)
            #expect(damaged != lines[i])
            lines[i] = damaged
        }
        let history = lines.joined(separator: "\n") + "\n"
        write(history, to: path)
        try FileManager.default.removeItem(atPath: dir.file("state.json"))

        let (store, loaded) = try openLoaded(dir.store)
        defer { store.close() }
        var adopted: DayKey?
        if case .empty(let day) = loaded.start { adopted = day }
        if case .state(let world) = loaded.start { adopted = world.lastClosedDay }
        #expect(adopted == days[2], "the damaged last day still counts as recorded: \(loaded.start)")
        #expect(try store.history(in: HistoryRange(from: nil, to: nil)).records.map(\.day.key) == [days[0]])
        #expect(bytes(path) == Array(history.utf8), "kept byte for byte")
    }
}
