import Foundation
import PetCore
import Testing

@testable import PetStore

/// The state and history loaders against mutated files (docs/RELIABILITY.md, "Loader fuzz"): seeded
/// byte flips, truncations, splices, JSON that parses but has the wrong types, and newer schemas,
/// on a store with a rich state, its closeout's snapshot and two years of history (the state file
/// mutated sometimes together with the snapshot). Each load ends in one of four outcomes — a clean
/// load, a repair, a quarantine, or the refusal of a newer schema — never a crash, never a silent
/// loss:
/// - a refusal leaves every file byte for byte as it was;
/// - a quarantine keeps the state file's bytes in `state.json.corrupt-…`, leaves the snapshot as it
///   was, and starts from the snapshot when it loads and reaches history's last day, else from the
///   pet at history's last close, else empty adopting history's last day (petprogress(7) §5);
/// - a state that loads keeps `state.json` as it was (and a migrated one's original beside it);
/// - a history file stays as it was or is cut back, and a cut is named in `problems`; every
///   complete line that reads as a record is kept, unless it is after the state's last closed day
///   (petprogress(7) §5: the state file is authoritative) and the cut is reported.
/// Then the store must save and load again cleanly. `make test`: 300 cases; `PETPROGRESS_RELIABILITY=full`: 10,000.
/// The import reader is fuzzed beside this, on an export of the same store (`LoaderFuzzTests+Import.swift`).
@Suite struct LoaderFuzzTests {
    static let full = ProcessInfo.processInfo.environment["PETPROGRESS_RELIABILITY"] == "full"
    static let cases = full ? 10_000 : 300
    static let seed: UInt64 = 20_260_302

    enum Mutation: String, CaseIterable {
        case flip = "byte flips"
        case truncate = "truncation"
        case splice = "splice"
        case wrongType = "valid JSON, wrong type"
        case newer = "newer schema"
    }

    enum Outcome: String, CaseIterable {
        case clean = "clean load"
        case repair = "repair"
        case quarantine = "quarantine"
        case refusal = "newer schema refused"
    }

    /// The files of the store every case starts from: a rich state, history from December 2025 to
    /// 1 March 2026 in two year files.
    static let baseline: [String: [UInt8]] = {
        let dir = TempDir()
        do {
            let (store, _) = try openLoaded(dir.store)
            var day = Fixture.day("2025-12-20")
            var records: [DayRecord] = []
            while day <= Fixture.day("2026-03-01") {
                records.append(Fixture.record(day, tasks: 1 + records.count % 4))
                day = day.adding(days: 1)
            }
            try store.closeDays(records, world: try Fixture.richWorld())
            store.close()
        } catch {
            Issue.record("baseline: \(error)")
        }
        var files: [String: [UInt8]] = [:]
        for name in names(dir.store) where name.hasPrefix("state") || name.hasPrefix("history-") {
            files[name] = bytes(dir.file(name))
        }
        return files
    }()

    @Test("mutated state and history files: a clean load, a repair, a quarantine or a refusal; no loss")
    func mutatedFiles() throws {
        #expect(
            Self.baseline.count == 4,
            "state.json, the 2026-03-01 snapshot and two history files: \(Self.baseline.keys.sorted())")
        var outcomes: [Mutation: [Outcome: Int]] = [:]
        for index in 0..<Self.cases {
            var random = SeededRandom(seed: Self.seed &+ UInt64(index))
            var files = Self.baseline
            let mutation = random.pick(Mutation.allCases)
            let target = random.pick(files.keys.sorted())
            files[target] = Self.mutate(files[target] ?? [], mutation, &random)
            // Now and then the snapshot too, so the fallback past it to history is exercised.
            let snapshot = Generations.name(Fixture.day("2026-03-01"))
            if target == "state.json", random.oneIn(3) {
                files[snapshot] = Self.mutate(files[snapshot] ?? [], random.pick(Mutation.allCases), &random)
            }
            let label = "case \(index) (seed \(Self.seed &+ UInt64(index))): \(mutation.rawValue) of \(target)"
            if let outcome = try Self.check(files, label) {
                outcomes[mutation, default: [:]][outcome, default: 0] += 1
            }
        }
        print("loader fuzz: \(Self.cases) cases, \(outcomes)")
        try Self.fragment(outcomes)
    }

    // MARK: Mutations

    static func mutate(_ bytes: [UInt8], _ mutation: Mutation, _ random: inout SeededRandom) -> [UInt8] {
        var out = bytes
        guard !out.isEmpty else { return out }
        switch mutation {
        case .flip:
            for _ in 0..<Int.random(in: 1...8, using: &random) {
                out[Int.random(in: 0..<out.count, using: &random)] ^= UInt8.random(in: 1...255, using: &random)
            }
        case .truncate:
            out.removeLast(Int.random(in: 1...out.count, using: &random))
        case .splice:
            let start = Int.random(in: 0..<out.count, using: &random)
            let piece = Array(out[start..<min(out.count, start + Int.random(in: 1...400, using: &random))])
            let at = Int.random(in: 0...out.count, using: &random)
            let replaced = random.oneIn(2) ? min(out.count - at, piece.count) : 0
            out.replaceSubrange(at..<(at + replaced), with: piece)
        case .wrongType, .newer:
            out = mutateJSON(out, mutation, &random)
        }
        return out
    }

    /// Rewrites one JSON document (the state file, or one history line) with a value of another
    /// type somewhere, or a schema above this build's.
    static func mutateJSON(_ bytes: [UInt8], _ mutation: Mutation, _ random: inout SeededRandom) -> [UInt8] {
        var lines = bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).map(Array.init)
        let candidates = lines.indices.filter { !lines[$0].isEmpty }
        guard !candidates.isEmpty else { return bytes }
        let line = random.pick(candidates)
        guard var value = JSONValue.parse(Data(lines[line])) else { return bytes }
        if mutation == .newer {
            value = replaced(
                value, at: ["schema"], with: .integer(Int64(Schema.current + Int.random(in: 1...9, using: &random))))
        } else {
            let paths = allPaths(value)
            let path = random.pick(paths)
            value = replaced(value, at: path, with: otherType(than: lookup(value, path) ?? .null, &random))
        }
        lines[line] = value.bytes
        return Array(lines.joined(separator: [UInt8(ascii: "\n")]))
    }

    /// The path (object keys, array indices as strings) of every value in `value`, itself first.
    static func allPaths(_ value: JSONValue, _ prefix: [String] = []) -> [[String]] {
        var paths = [prefix]
        switch value {
        case .object(let members):
            for (key, member) in members.sorted(by: { $0.key < $1.key }) { paths += allPaths(member, prefix + [key]) }
        case .array(let elements):
            for (index, element) in elements.enumerated() { paths += allPaths(element, prefix + [String(index)]) }
        default: break
        }
        return paths
    }

    static func lookup(_ value: JSONValue, _ path: [String]) -> JSONValue? {
        guard let head = path.first else { return value }
        switch value {
        case .object(let members): return members[head].flatMap { lookup($0, Array(path.dropFirst())) }
        case .array(let elements):
            guard let index = Int(head), elements.indices.contains(index) else { return nil }
            return lookup(elements[index], Array(path.dropFirst()))
        default: return nil
        }
    }

    static func replaced(_ value: JSONValue, at path: [String], with new: JSONValue) -> JSONValue {
        guard let head = path.first else { return new }
        let rest = Array(path.dropFirst())
        switch value {
        case .object(var members):
            members[head] = replaced(members[head] ?? .null, at: rest, with: new)
            return .object(members)
        case .array(var elements):
            guard let index = Int(head), elements.indices.contains(index) else { return value }
            elements[index] = replaced(elements[index], at: rest, with: new)
            return .array(elements)
        default:
            return value
        }
    }

    static func otherType(than value: JSONValue, _ random: inout SeededRandom) -> JSONValue {
        let choices: [JSONValue] = [
            .null, .bool(true), .integer(-1), .integer(Int64.max), .number(1.5), .string(""), .string("2026-03-01"),
            .array([]), .array([.integer(1)]), .object([:]), .object(["key": .string("2026-03-01")]),
        ]
        func kind(_ v: JSONValue) -> Int {
            switch v {
            case .null: 0
            case .bool: 1
            case .integer, .number: 2
            case .string: 3
            case .array: 4
            case .object: 5
            }
        }
        return random.pick(choices.filter { kind($0) != kind(value) })
    }

    // MARK: The check

    /// Loads a store made of `files`; the outcome, or nil after recording an issue.
    static func check(_ files: [String: [UInt8]], _ label: String) throws -> Outcome? {
        let dir = TempDir()
        try FileManager.default.createDirectory(atPath: dir.store, withIntermediateDirectories: true)
        for (name, contents) in files {
            try Data(contents).write(to: URL(fileURLWithPath: dir.file(name)))
        }
        let store = try PetStore.open(directory: dir.store)
        defer { store.close() }
        let loaded: Loaded
        do {
            loaded = try store.load(now: Fixture.now)
        } catch  where isNewer(error) {
            for (name, contents) in files where bytes(dir.file(name)) != contents {
                Issue.record("\(label): the refusal changed \(name)")
            }
            return .refusal
        } catch {
            Issue.record("\(label): load threw \(error)")
            return nil
        }
        guard checkState(files, loaded, dir, label), checkHistory(files, loaded, dir, label),
            checkQueries(store, dir, label)
        else { return nil }
        guard reload(store, loaded, dir, label) else { return nil }
        if loaded.quarantinedTo != nil { return .quarantine }
        return loaded.problems.isEmpty && loaded.migratedFrom == nil ? .clean : .repair
    }

    static func isNewer(_ error: StoreError) -> Bool {
        if case .newerSchema = error.kind { return true }
        return false
    }

    /// After a quarantine (petprogress(7) §5): the snapshot's world when it loads and reaches
    /// history's last day; else the pet at history's last close; else empty, adopting history's
    /// last day. The snapshot itself is left as it was.
    static func checkRecovery(_ files: [String: [UInt8]], _ loaded: Loaded, _ dir: TempDir, _ label: String) -> Bool {
        let name = Generations.name(Fixture.day("2026-03-01"))
        guard bytes(dir.file(name)) == files[name] else {
            Issue.record("\(label): the recovery changed the snapshot")
            return false
        }
        var snapshot: PetWorld?
        if let b = files[name], case .world(let world, _, _) = StateFile.decode(b) { snapshot = world }
        let end = lastRecordedDay(dir)
        let reaches = snapshot.map { world in end.map { day in world.lastClosedDay.map { $0 >= day } ?? false } ?? true
        }
        let fine: Bool
        switch loaded.start {
        case .state(let world): fine = world == snapshot && reaches == true && loaded.recovery?.source == .snapshot
        case .rebuilt(_, let last, let carried):
            fine = last == end && carried == snapshot && reaches != true && loaded.recovery?.acknowledged == false
        case .empty(let last):
            fine = last == end && reaches != true && loaded.recovery?.source == .empty
        }
        if !fine {
            Issue.record("\(label): the recovery started from \(loaded.start), \(String(describing: loaded.recovery))")
        }
        return fine
    }

    static func checkState(_ files: [String: [UInt8]], _ loaded: Loaded, _ dir: TempDir, _ label: String) -> Bool {
        let original = files["state.json"]
        if let moved = loaded.quarantinedTo {
            guard bytes(moved) == original, bytes(dir.file("state.json")) == nil else {
                Issue.record("\(label): the quarantined copy differs from the state file")
                return false
            }
            return checkRecovery(files, loaded, dir, label)
        }
        guard bytes(dir.file("state.json")) == original else {
            Issue.record("\(label): a state that loaded was rewritten by the load")
            return false
        }
        if let from = loaded.migratedFrom, bytes(dir.file("state.json.schema\(from)")) != original {
            Issue.record("\(label): the pre-migration copy differs")
            return false
        }
        return true
    }

    /// Every history file is as it was or cut back with a problem naming it, and keeps every
    /// complete record line up to the state's last closed day.
    static func checkHistory(_ files: [String: [UInt8]], _ loaded: Loaded, _ dir: TempDir, _ label: String) -> Bool {
        let authority: DayKey?? =
            switch loaded.start {
            case .state(let world): .some(world.lastClosedDay)
            case .empty, .rebuilt: nil
            }
        for (name, before) in files where name.hasPrefix("history-") {
            let after = bytes(dir.file(name)) ?? []
            guard after != before else { continue }
            let named = loaded.problems.contains { $0.contains(dir.file(name)) }
            guard named, after.count < before.count, Array(before.prefix(after.count)) == after else {
                Issue.record(
                    "\(label): \(name) changed \(named ? "other than by a cut" : "without a problem naming it")")
                return false
            }
            var offset = 0
            for line in before.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).dropLast() {
                defer { offset += line.count + 1 }
                guard case .record(let record) = HistoryLine.decode(line) else { continue }
                let droppable = authority.map { limit in limit.map { record.day.key > $0 } ?? true } ?? false
                if !droppable && offset + line.count + 1 > after.count {
                    Issue.record("\(label): \(name) lost the record of \(record.day.key)")
                    return false
                }
            }
        }
        return true
    }

    /// A query of all history returns every record a complete line of the files holds, or refuses
    /// a newer schema that one of them has. A last line without its newline is torn (petprogress(7)
    /// §5), not a record, even when its bytes parse: case 9046 cuts an older year's file just
    /// before its last newline, which a start-up leaves alone (it checks the newest file) and a
    /// query skips, as it skips every torn tail.
    static func checkQueries(_ store: PetStore, _ dir: TempDir, _ label: String) -> Bool {
        var expected: Set<DayKey> = []
        var newer = false
        for name in names(dir.store) where name.hasPrefix("history-") {
            let lines = (bytes(dir.file(name)) ?? []).split(
                separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false
            ).dropLast()
            for line in lines where !line.isEmpty {
                switch HistoryLine.decode(line) {
                case .record(let record): expected.insert(record.day.key)
                case .newer: newer = true
                case .unreadable: break
                }
            }
        }
        do {
            let found = Set(
                try store.history(in: HistoryRange(from: nil, to: nil), limit: 100_000).records.map(\.day.key))
            guard found.isSuperset(of: expected) else {
                Issue.record("\(label): a query missed \(expected.subtracting(found).sorted())")
                return false
            }
        } catch  where isNewer(error) && newer {
        } catch {
            Issue.record("\(label): a query of all history threw \(error)")
            return false
        }
        return true
    }

    /// History's last recorded day, read afresh.
    static func lastRecordedDay(_ dir: TempDir) -> DayKey? {
        let years = names(dir.store).filter { $0.hasPrefix("history-") }.sorted()
        for name in years.reversed() {
            let lines = (bytes(dir.file(name)) ?? []).split(separator: UInt8(ascii: "\n"))
            for line in lines.reversed() {
                if case .day(let day) = HistoryLine.day(of: line) { return day }
            }
        }
        return nil
    }

    /// The loaded store saves, and loads again without a quarantine, to the world it saved.
    static func reload(_ store: PetStore, _ loaded: Loaded, _ dir: TempDir, _ label: String) -> Bool {
        let world: PetWorld
        switch loaded.start {
        case .state(let w): world = w
        case .empty(let last): world = Fixture.world(closedThrough: last)
        case .rebuilt: world = loaded.world(now: Fixture.now, zone: Fixture.zone)
        }
        do {
            try store.save(world)
            store.close()
            let (again, reloaded) = try openLoaded(dir.store)
            defer { again.close() }
            guard reloaded.quarantinedTo == nil, reloaded.start == .state(world) else {
                Issue.record("\(label): after a save the store loads as \(reloaded.start), \(reloaded.problems)")
                return false
            }
            return true
        } catch {
            Issue.record("\(label): after the load, save and reload failed: \(error)")
            return false
        }
    }

    // MARK: The report

    static func fragment(_ outcomes: [Mutation: [Outcome: Int]]) throws {
        guard full else { return }
        var lines: [String] = [
            "## Loader fuzz", "",
            "`LoaderFuzzTests` (PetStoreTests, in-process): \(cases) stores, each the same rich state and "
                + "73 days of history in two year files, and the last closeout's snapshot, with one file mutated "
                + "(a third of the state file's cases with the snapshot too; seed \(seed) plus the case "
                + "number), loaded, then saved and loaded again. No crash, no unexpected error, and no silent "
                + "loss, checked in every case: a refusal leaves every file as it was; a quarantine keeps the "
                + "state file's bytes, leaves the snapshot as it was and starts from it when it loads and reaches "
                + "history's last day, else from the pet at history's last close, else empty adopting history's "
                + "last day; a state that loads is left "
                + "as it was; a history file stays as it was or is cut back with a problem naming it, keeping "
                + "every record up to the state's last closed day; a query of all history returns every record "
                + "the files hold. A newer schema in a history line away from a file's end is not read at load "
                + "(a clean load); a query reaching that day refuses it. Found and fixed: a state file whose "
                + "last closed day is before the history day it records loaded, and then every save was "
                + "refused; it is now quarantined (docs/DECISIONS.md).", "",
            "| mutation | " + Outcome.allCases.map(\.rawValue).joined(separator: " | ") + " |",
            "| --- |" + String(repeating: " --- |", count: Outcome.allCases.count),
        ]
        for mutation in Mutation.allCases {
            let row = Outcome.allCases.map { String(outcomes[mutation]?[$0] ?? 0) }
            lines.append("| \(mutation.rawValue) | " + row.joined(separator: " | ") + " |")
        }
        let directory = ProcessInfo.processInfo.environment["PETPROGRESS_RELIABILITY_OUT"] ?? ".build/reliability"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        try (lines.joined(separator: "\n") + "\n\n").write(
            toFile: "\(directory)/62-loader-fuzz.md", atomically: true, encoding: .utf8)
    }
}

/// PetCore's SplitMix64, so a failing case is replayed from its seed.
typealias SeededRandom = SplitMix64

extension SplitMix64 {
    mutating func oneIn(_ n: Int) -> Bool { Int.random(in: 0..<n, using: &self) == 0 }
    mutating func pick<T>(_ choices: [T]) -> T { choices[Int.random(in: 0..<choices.count, using: &self)] }
}
