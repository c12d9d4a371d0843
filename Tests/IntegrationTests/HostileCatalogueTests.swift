import Foundation
import TestSupport
import Testing

/// A hostile translation catalogue: every one of petctl's messages translated into
/// a format string that would trap, overflow or read past its arguments if it were handed to a
/// printf — `%99999999999999999999d`, `%n`, more placeholders than arguments, positions past them,
/// a lone `%`, C's length modifiers, bidi controls, invalid UTF-8, a 256 KiB string — and a
/// `Plural-Forms` that picks a form the catalogue lacks. The catalogue is installed where the real
/// petctl looks (`<its directory>/../share/locale`, a copy of the binary in a private tree) and
/// petctl runs under it against the real daemon: no crash, every command answers with its usual
/// status, and what it prints shows the hostile text as written (`L10n.format` fills placeholders
/// itself and leaves what it cannot parse visible).
@Suite("a hostile catalogue through the real petctl")
struct HostileCatalogueTests {
    static let hostile: [[UInt8]] = [
        Array("%99999999999999999999d".utf8),
        Array("%n%n%n %s %hhn".utf8),
        Array("%s %s %s %s %s %s %s %s %s %s %s %s".utf8),
        Array("%1$s %99999$s %0$s %2147483648$s".utf8),
        Array("100 % lone %".utf8),
        Array("%ls %lld %Lf %p %x %c %*d %.*s %-99999999999d".utf8),
        Array("\u{202E}reversed %s\u{2066}".utf8),
        [0xFF, 0xFE, 0x25, 0x73, 0xC3, 0x28, 0x20, 0x25, 0x64],  // invalid UTF-8 around %s and %d
        Array(("%s " + String(repeating: "Ü", count: 128 * 1024)).utf8),  // 256 KiB
    ]

    /// The keys of a GNU .mo catalogue (plurals as `singular\0plural`).
    static func keys(ofCatalogue bytes: [UInt8]) throws -> [[UInt8]] {
        func word(_ at: Int) -> Int {
            Int(bytes[at]) | Int(bytes[at + 1]) << 8 | Int(bytes[at + 2]) << 16 | Int(bytes[at + 3]) << 24
        }
        try #require(bytes.count > 28 && word(0) == 0x9504_12de, "a little-endian .mo")
        let count = word(8)
        let originals = word(12)
        return (0..<count).map { i in
            let length = word(originals + 8 * i)
            let offset = word(originals + 8 * i + 4)
            return Array(bytes[offset..<offset + length])
        }
    }

    /// A GNU .mo catalogue (little-endian, no hash table) of `entries`, sorted by key as gettext wants.
    static func catalogue(_ entries: [(key: [UInt8], value: [UInt8])]) -> [UInt8] {
        let sorted = entries.sorted { $0.key.lexicographicallyPrecedes($1.key) }
        let header = 28
        let tables = header + 16 * sorted.count
        var data: [UInt8] = []
        var originals: [(Int, Int)] = []
        var translations: [(Int, Int)] = []
        for entry in sorted {
            originals.append((entry.key.count, tables + data.count))
            data += entry.key + [0]
        }
        for entry in sorted {
            translations.append((entry.value.count, tables + data.count))
            data += entry.value + [0]
        }
        var out: [UInt8] = []
        func put(_ value: Int) { out += withUnsafeBytes(of: UInt32(value).littleEndian, Array.init) }
        put(0x9504_12de)
        put(0)
        put(sorted.count)
        put(header)
        put(header + 8 * sorted.count)
        put(0)
        put(0)
        for (length, offset) in originals + translations {
            put(length)
            put(offset)
        }
        return out + data
    }

    /// A copy of an executable written through a descriptor opened with O_CLOEXEC: FileManager's
    /// copy leaves its write descriptor to any process another test forks meanwhile, which then
    /// holds it for its whole life and every start of the copy fails with ETXTBSY ("Text file busy").
    static func copyExecutable(_ source: String, to target: String) throws {
        let bytes = try Data(contentsOf: URL(fileURLWithPath: source))
        let fd = open(target, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o755)
        guard fd >= 0 else { throw HarnessError("cannot create \(target): \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        var written = 0
        try bytes.withUnsafeBytes { (buffer: UnsafeRawBufferPointer) in
            while written < buffer.count {
                let n = write(fd, buffer.baseAddress! + written, buffer.count - written)
                guard n > 0 else { throw HarnessError("cannot write \(target): \(String(cString: strerror(errno)))") }
                written += n
            }
        }
    }

    @Test("no crash, the usual statuses, the hostile text shown as written")
    func hostileCatalogue() async throws {
        let world = try await World("hostilecatalogue")
        defer { world.close() }
        _ = try await world.daemon(now: "2026-03-02T09:00:00+01:00")
        let petctl = try productBinary("petctl", override: "PETCTL")
        let shipped = URL(fileURLWithPath: petctl).deletingLastPathComponent()
            .appendingPathComponent("../share/locale/de/LC_MESSAGES/petprogress.mo").standardized.path
        let keys = try Self.keys(ofCatalogue: Array(try Data(contentsOf: URL(fileURLWithPath: shipped))))
            .filter { !$0.isEmpty }
        try #require(keys.count > 200, "petctl's German catalogue, made by `make locale`: \(shipped)")
        var entries: [(key: [UInt8], value: [UInt8])] = [
            (
                [],
                Array(
                    "Content-Type: text/plain; charset=UTF-8\nPlural-Forms: nplurals=2; plural=(n%7);\n".utf8)
            )
        ]
        for (i, key) in keys.enumerated() {
            let form = Self.hostile[i % Self.hostile.count]
            let other = Self.hostile[(i + 1) % Self.hostile.count]
            // A plural entry gets two forms; the rule above also asks for forms 2 to 6, which it lacks.
            entries.append((key, key.contains(0) ? form + [0] + other : form))
        }

        // petctl finds its catalogues beside its own directory: a copy in a private tree.
        let bin = world.sandbox.path("tree/bin")
        let locale = world.sandbox.path("tree/share/locale/de/LC_MESSAGES")
        try FileManager.default.createDirectory(atPath: bin, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: locale, withIntermediateDirectories: true)
        try Self.copyExecutable(petctl, to: bin + "/petctl")
        try Data(Self.catalogue(entries)).write(to: URL(fileURLWithPath: locale + "/petprogress.mo"))

        let environment = world.petctlEnvironment.merging(
            ["LANG": "C.UTF-8", "LC_ALL": "C.UTF-8", "LANGUAGE": "de", "COLUMNS": "80"]) { $1 }
        let runs: [(arguments: [String], statuses: Set<Int32>)] = [
            (["add", "10:00", "Stretch"], [0]),
            (["add", "11:00", "Write", "--repeat", "daily"], [0]),
            (["today"], [0]),
            (["today", "--plain"], [0]),
            (["done"], [0]),
            (["undo"], [0]),
            (["snooze"], [0]),
            (["tomorrow"], [0]),
            (["templates"], [0]),
            (["timeline"], [0]),
            (["history"], [0]),
            (["log"], [0, 1]),
            (["status"], [0]),
            (["settings"], [0]),
            (["widget", "--format", "waybar"], [0]),
            (["rest", "--list"], [0]),
            (["generations"], [0]),
            (["export", "--format", "csv"], [0]),
            (["done", "99"], [1]),
            (["add", "25:99", "Nope"], [1, 64]),
            (["restore", "no-such-snapshot", "--check"], [1]),
            (["frobnicate"], [64]),
            (["--help"], [0]),
            (["help", "add"], [0]),
            (["simulate", "--days", "30", "--tasks", "3", "--done-rate", "0.8", "--on-time-rate", "0.5"], [0]),
        ]
        var shown = 0
        for run in runs {
            let result = try await world.sandbox.run(
                bin + "/petctl", run.arguments, environment: environment, timeout: .seconds(60))
            #expect(run.statuses.contains(result.status), "\(run.arguments): \(result)")
            #expect(result.status < 128, "\(run.arguments) ended by a signal: \(result)")
            #expect(!(result.output + result.errors).contains("Fatal error"), "\(run.arguments): \(result)")
            let text = result.output + result.errors
            if text.contains("%99999999999999999999d") || text.contains("%n%n%n") || text.contains("100 % lone %") {
                shown += 1
            }
            // Bidi controls are neutralised in what petctl prints, whatever the catalogue holds
            // (petctl's own isolates, FSI … PDI around right-to-left text, are not among these).
            #expect(
                !text.unicodeScalars.contains {
                    (0x202A...0x202E).contains($0.value) || (0x2066...0x2067).contains($0.value)
                },
                "\(run.arguments)")
        }
        #expect(shown >= runs.count / 2, "the hostile text is shown as written in most answers (\(shown))")
        // The daemon took what petctl asked of it, whatever petctl's words.
        let tasks = try world.client().tasks()
        #expect(tasks.map { $0["title"]?.stringValue ?? "" }.sorted() == ["Stretch", "Write"], "\(tasks)")
    }
}
