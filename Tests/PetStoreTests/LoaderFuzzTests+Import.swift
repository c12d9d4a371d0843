import Foundation
import PetBus
import PetCore
import Testing

@testable import PetStore

/// The import reader against mutated export documents (docs/RELIABILITY.md, "Loader fuzz"): the
/// export of the same rich store as `mutatedFiles` (its `store` member written by `Backup.encoded`,
/// as the daemon's `ExportStore` writes it, inside the envelope `Import` reads), with one seeded
/// byte flip, truncation, splice, value of another type, out-of-bounds value, newer or older schema
/// in the envelope, the store's world or its history; then imported as the daemon's `Import` does
/// with replace, over that store: `Backup.read` with the bus's format and export schema, then
/// `PetStore.restore`. Each import ends in one of two ways, never a crash, never a partial change:
/// - accepted: the store loads as the document's world and history, with no problem, and again
///   after a reopen; the data files are the imported state and history only; the previous data
///   is kept byte for byte in `import-backup-…/`;
/// - refused with one sentence (one line, no full stop, as `Backup.Refusal` promises): the data
///   directory is byte for byte as it was, every file and directory in it.
/// A document the reader accepts that `restore` then cannot write is a failure of the reader.
/// `make test`: 50 cases; `PETPROGRESS_RELIABILITY=full`: 1,000 — fewer than the files' cases, as the
/// reader takes about 0.12 s to parse this 45 KB document (`JSONValue`'s decoder, a debug build).
extension LoaderFuzzTests {
    static let importCases = full ? 1_000 : 50

    enum ImportMutation: String, CaseIterable {
        case flip = "byte flips"
        case truncate = "truncation"
        case splice = "splice"
        case wrongType = "valid JSON, wrong type"
        case outOfBounds = "out-of-bounds value"
        case newer = "newer schema"
        case older = "older schema"
    }

    enum ImportOutcome: String, CaseIterable {
        case asExported = "accepted as exported"
        case changed = "accepted, changed"
        case refused = "refused"
        case newerRefused = "newer schema refused"
    }

    /// Where in the document a mutation lands: the envelope (the export's own members, the `store`
    /// member's schema), the store's world, or its history.
    enum Part: String, CaseIterable {
        case envelope = "the envelope"
        case world = "the store's world"
        case history = "the store's history"
    }

    /// A valid export document, what it holds, and the bytes of each part.
    struct Export {
        let backup: Backup
        let bytes: [UInt8]
        let parts: [Part: Range<Int>]
        /// The document parsed, and the paths of each part's values: parsed once, not at every case.
        let document: JSONValue
        let paths: [Part: [[String]]]
    }

    static let export = Result { try makeExport() }

    /// `baseline`'s store exported: the daemon's `store` member for its world and all of history, in
    /// the envelope `petctl export` writes (of its members for reading, only the scalar ones: the
    /// reader ignores them all; petctl's writer is in an executable, out of a test's reach).
    static func makeExport() throws -> Export {
        let dir = TempDir()
        try populate(dir, with: baseline)
        let (store, loaded) = try openLoaded(dir.store)
        defer { store.close() }
        guard case .state(let world) = loaded.start else { throw StoreError(.inconsistent, "baseline: \(loaded)") }
        let backup = Backup(world: world, history: try store.allHistory())
        let inner = try backup.encoded()
        let members = [
            ("format", "\"\(PetBus.exportFormat)\""), ("schema", "\(PetBus.exportSchema)"),
            ("exported_at", "\(Fixture.now)"), ("open_day", "\"\(world.openDay.key)\""),
            ("last_closed_day", "\"\(world.lastClosedDay.map { "\($0)" } ?? "")\""),
        ]
        let head = Array(("{\n" + members.map { "  \"\($0.0)\": \($0.1),\n" }.joined() + "  \"store\": ").utf8)
        let marker = Array(
            #"],"\#(Backup.Key.schema.stringValue)":\#(Schema.current),"\#(Backup.Key.world.stringValue)":"#.utf8)
        guard let split = inner.indices.first(where: { inner[$0...].starts(with: marker) }) else {
            throw StoreError(.inconsistent, "the store member has no world after its history")
        }
        let bytes = head + inner + Array("\n}\n".utf8)
        guard let document = JSONValue.parse(Data(bytes)) else {
            throw StoreError(.inconsistent, "the export is not JSON")
        }
        return Export(
            backup: backup, bytes: bytes,
            parts: [
                .envelope: 0..<head.count, .history: head.count..<(head.count + split),
                .world: (head.count + split)..<(head.count + inner.count),
            ],
            document: document,
            paths: Dictionary(uniqueKeysWithValues: Part.allCases.map { ($0, paths(document, in: $0)) }))
    }

    @Test("mutated export documents: an import that loads back as imported, or a refusal that changes nothing")
    func mutatedExports() throws {
        let export = try Self.export.get()
        #expect(export.backup.history.count == 72, "the baseline's 72 days of history")
        #expect(try Self.checkImport(export.bytes, export.backup, "the export itself") == .asExported)
        var outcomes: [ImportMutation: [ImportOutcome: Int]] = [:]
        for index in 0..<Self.importCases {
            var random = SeededRandom(seed: Self.seed &+ UInt64(index))
            let mutation = random.pick(ImportMutation.allCases)
            let part = random.pick(Part.allCases)
            let document = Self.mutate(export, mutation, in: part, &random)
            let label =
                "import case \(index) (seed \(Self.seed &+ UInt64(index))): \(mutation.rawValue) in \(part.rawValue)"
            if let outcome = try Self.checkImport(document, export.backup, label) {
                outcomes[mutation, default: [:]][outcome, default: 0] += 1
            }
        }
        print("import fuzz: \(Self.importCases) cases, \(outcomes)")
        try Self.importFragment(outcomes)
    }

    // MARK: Mutations

    static func mutate(_ export: Export, _ mutation: ImportMutation, in part: Part, _ random: inout SeededRandom)
        -> [UInt8]
    {
        var out = export.bytes
        let range = export.parts[part] ?? out.indices
        switch mutation {
        case .flip:
            for _ in 0..<Int.random(in: 1...8, using: &random) {
                out[Int.random(in: range, using: &random)] ^= UInt8.random(in: 1...255, using: &random)
            }
        case .truncate:
            out.removeSubrange(Int.random(in: range, using: &random)...)
        case .splice:
            let start = Int.random(in: 0..<out.count, using: &random)
            let piece = Array(out[start..<min(out.count, start + Int.random(in: 1...400, using: &random))])
            let at = Int.random(in: range, using: &random)
            let replaced = random.oneIn(2) ? min(out.count - at, piece.count) : 0
            out.replaceSubrange(at..<(at + replaced), with: piece)
        case .wrongType, .outOfBounds, .newer, .older:
            out = mutateValue(export, mutation, in: part, &random).bytes
        }
        return out
    }

    /// The document with one value replaced: the export schema (in the envelope) or the store's
    /// schema set above or below this build's, or a value of `part` by one of another type or out
    /// of the bounds a load checks.
    static func mutateValue(
        _ export: Export, _ mutation: ImportMutation, in part: Part, _ random: inout SeededRandom
    ) -> JSONValue {
        let document = export.document
        let paths = export.paths[part] ?? []
        switch mutation {
        case .newer, .older:
            let (path, current) =
                part == .envelope
                ? ([Backup.Key.documentSchema], PetBus.exportSchema)
                : ([Backup.Key.documentStore, Backup.Key.schema.stringValue], Schema.current)
            let version =
                mutation == .newer
                ? current + Int.random(in: 1...9, using: &random) : Int.random(in: 0..<current, using: &random)
            return replaced(document, at: path, with: .integer(Int64(version)))
        case .outOfBounds:
            let leaves = paths.filter { path in
                switch lookup(document, path) {
                case .integer?, .number?, .string?: true
                default: false
                }
            }
            guard !leaves.isEmpty else { return document }
            let path = random.pick(leaves)
            return replaced(document, at: path, with: outOfBounds(lookup(document, path) ?? .null, &random))
        default:
            let path = random.pick(paths)
            return replaced(document, at: path, with: otherType(than: lookup(document, path) ?? .null, &random))
        }
    }

    /// The paths of every value in `part` of the document.
    static func paths(_ document: JSONValue, in part: Part) -> [[String]] {
        allPaths(document).filter { path in
            let member = path.count >= 2 && path[0] == Backup.Key.documentStore ? path[1] : nil
            switch part {
            case .envelope: return member != Backup.Key.world.stringValue && member != Backup.Key.history.stringValue
            case .world: return member == Backup.Key.world.stringValue
            case .history: return member == Backup.Key.history.stringValue
            }
        }
    }

    /// A value of the same type as `value` that the bus's bounds refuse (`BoundsOnLoadTests`' probes),
    /// or a day or a time that does not exist.
    static func outOfBounds(_ value: JSONValue, _ random: inout SeededRandom) -> JSONValue {
        guard case .string = value else { return random.pick(BoundsOnLoadTests.numberProbes).value }
        let nonexistent: [JSONValue] = [.string("2026-02-30"), .string("24:00"), .string("10000-01-01")]
        return random.pick(BoundsOnLoadTests.stringProbes.map(\.value) + nonexistent)
    }

    // MARK: The check

    /// Imports `document` over a store of `baseline`'s files; the outcome, or nil after recording an issue.
    static func checkImport(_ document: [UInt8], _ exported: Backup, _ label: String) throws -> ImportOutcome? {
        let dir = TempDir()
        try populate(dir, with: baseline)
        // The daemon's store is loaded before any method call.
        let (store, _) = try openLoaded(dir.store)
        defer { store.close() }
        let before = tree(dir.store)
        let backup: Backup
        do throws(Backup.Refusal) {
            backup = try Backup.read(document: document, format: PetBus.exportFormat, schema: PetBus.exportSchema)
        } catch {
            return refused(error.message, before, dir, label)
        }
        let restored: (kept: String, loaded: Loaded)
        do {
            restored = try store.restore(backup, now: Fixture.now)
        } catch {
            Issue.record("\(label): the reader accepted a document the store could not write: \(error)")
            _ = refused(error.message, before, dir, label)
            return nil
        }
        guard checkAccepted(backup, restored, before, dir, label), reloads(store, backup, dir, label) else {
            return nil
        }
        return backup.world == exported.world && backup.history == exported.history ? .asExported : .changed
    }

    /// A refusal is one sentence and leaves every file and directory as it was.
    static func refused(_ message: String, _ before: [String: [UInt8]?], _ dir: TempDir, _ label: String)
        -> ImportOutcome?
    {
        let after = tree(dir.store)
        guard after == before else {
            let changed = Set(before.keys).union(after.keys).filter { before[$0] != after[$0] }.sorted()
            Issue.record("\(label): the refusal (\(message)) changed \(changed)")
            return nil
        }
        guard !message.isEmpty, !message.contains("\n"), !message.hasSuffix(".") else {
            Issue.record("\(label): the refusal is not one sentence without its full stop: \(message)")
            return nil
        }
        return message.contains("newer Pet Progress") ? .newerRefused : .refused
    }

    /// After an accepted import: the store loaded the document's world and history, with no problem;
    /// its data files are those of the import; the previous data files are kept as they were.
    static func checkAccepted(
        _ backup: Backup, _ restored: (kept: String, loaded: Loaded), _ before: [String: [UInt8]?], _ dir: TempDir,
        _ label: String
    ) -> Bool {
        let loaded = restored.loaded
        guard loaded.start == .state(backup.world), loaded.problems.isEmpty, loaded.quarantinedTo == nil else {
            Issue.record("\(label): the import loaded as \(loaded.start), \(loaded.problems)")
            return false
        }
        let kept = tree(restored.kept)
        let previous = before.filter { StoreSwap.isDataFile($0.key) }
        guard kept == previous, !previous.isEmpty else {
            Issue.record("\(label): the previous data was not kept as it was: \(kept.keys.sorted())")
            return false
        }
        let years = Set(backup.history.map { HistoryFiles.name(year: $0.day.key.year) })
        let data = Set(names(dir.store).filter(StoreSwap.isDataFile))
        let leftovers = names(dir.store).filter { $0.hasPrefix(".import") }
        guard data == years.union([StateFile.name]), leftovers.isEmpty else {
            Issue.record("\(label): after the import the directory holds \(names(dir.store))")
            return false
        }
        return true
    }

    /// The imported store's history reads back whole, and a reopened store loads the same.
    static func reloads(_ store: PetStore, _ backup: Backup, _ dir: TempDir, _ label: String) -> Bool {
        do {
            guard try store.allHistory() == backup.history else {
                Issue.record("\(label): the imported history reads back differently")
                return false
            }
            store.close()
            let (again, reloaded) = try openLoaded(dir.store)
            defer { again.close() }
            guard reloaded.start == .state(backup.world), reloaded.problems.isEmpty,
                try again.allHistory() == backup.history
            else {
                Issue.record("\(label): reopened, the import loads as \(reloaded.start), \(reloaded.problems)")
                return false
            }
            return true
        } catch {
            Issue.record("\(label): the imported store could not be read again: \(error)")
            return false
        }
    }

    /// Writes `files` into a new store directory.
    static func populate(_ dir: TempDir, with files: [String: [UInt8]]) throws {
        try FileManager.default.createDirectory(atPath: dir.store, withIntermediateDirectories: true)
        for (name, contents) in files {
            try Data(contents).write(to: URL(fileURLWithPath: dir.file(name)))
        }
    }

    /// Every file and directory under `path` by its relative path: a file's bytes, nil for a directory.
    static func tree(_ path: String) -> [String: [UInt8]?] {
        var entries: [String: [UInt8]?] = [:]
        for name in (try? FileManager.default.subpathsOfDirectory(atPath: path)) ?? [] {
            entries[name] = .some(bytes(path + "/" + name))
        }
        return entries
    }

    // MARK: The report

    static func importFragment(_ outcomes: [ImportMutation: [ImportOutcome: Int]]) throws {
        guard full else { return }
        var lines: [String] = [
            "### The import reader", "",
            "`LoaderFuzzTests.mutatedExports` (PetStoreTests, in-process): \(importCases) export documents, each the "
                + "export of the same store (its `store` member written by `Backup.encoded`, as the daemon's "
                + "`ExportStore` writes it: the rich state and 72 days of history) with one mutation in the "
                + "envelope, the store's world or its history (seed \(seed) plus the case number), imported "
                + "as the daemon's `Import` does with replace, over that store: `Backup.read` with the bus's "
                + "format and export schema, then `PetStore.restore`. No crash, and no partial change, checked "
                + "in every case: an accepted import loads as the document's world and history with no "
                + "problem, and again after a reopen, its data files are the imported ones only, and the "
                + "previous data is kept byte for byte in `import-backup-…/`; a refusal is one sentence and "
                + "leaves every file and directory of the data directory byte for byte as it was. \"Accepted, "
                + "changed\": the mutation made other valid values (a title, a day's figures); \"accepted as "
                + "exported\": it landed where the reader does not look, or changed nothing it reads.", "",
            "| mutation | " + ImportOutcome.allCases.map(\.rawValue).joined(separator: " | ") + " |",
            "| --- |" + String(repeating: " --- |", count: ImportOutcome.allCases.count),
        ]
        for mutation in ImportMutation.allCases {
            let row = ImportOutcome.allCases.map { String(outcomes[mutation]?[$0] ?? 0) }
            lines.append("| \(mutation.rawValue) | " + row.joined(separator: " | ") + " |")
        }
        let directory = ProcessInfo.processInfo.environment["PETPROGRESS_RELIABILITY_OUT"] ?? ".build/reliability"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        // 63: right after the loader fuzz's own fragment (62), inside its section.
        try (lines.joined(separator: "\n") + "\n\n").write(
            toFile: "\(directory)/63-loader-fuzz-import.md", atomically: true, encoding: .utf8)
    }
}
