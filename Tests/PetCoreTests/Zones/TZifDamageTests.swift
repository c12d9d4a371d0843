import Foundation
import PetCore
import Testing

/// Damaged TZif data: each defect is an error that says what is wrong, and nothing traps or hangs.
/// Then thousands of seeded random mutations of real files.
@Suite struct TZifDamageTests {

    /// Overwrites the 32-bit count `index` (0 isutcnt … 5 charcnt) of the header at `header`.
    func setting(_ bytes: [UInt8], header: Int, count index: Int, to value: UInt32) -> [UInt8] {
        var b = bytes
        let at = header + 20 + 4 * index
        b.replaceSubrange(at..<at + 4, with: TZifFile.bigEndian(Int64(value), size: 4))
        return b
    }

    var good: [UInt8] { TZifFile.berlin2026.bytes }
    /// Where the version 2 header starts in `good`.
    var second: Int { 44 + 2 * 5 + 2 * 6 + 9 + 2 * 2 }

    @Test func theMadeFileIsGood() {
        #expect(tzifProblem(good) == nil)
        #expect(Array(good[second..<second + 4]) == Array("TZif".utf8))
    }

    @Test func emptyTruncatedAndForeignData() {
        #expect(tzifProblem([])?.contains("truncated") == true)
        #expect(tzifProblem(Array("TZif2".utf8))?.contains("truncated") == true)
        #expect(
            tzifProblem(Array("<?xml version=\"1.0\"?><zone/>                                   ".utf8))
                == "not TZif data (bad magic)")
        #expect(tzifProblem([UInt8](repeating: 0, count: 4096)) == "not TZif data (bad magic)")
        for cut in [45, second - 1, second + 10, second + 50, good.count - 3, good.count - 1] {
            #expect(tzifProblem(Array(good.prefix(cut))) != nil, "cut at \(cut)")
        }
        var badSecond = good
        badSecond[second] = UInt8(ascii: "X")
        #expect(tzifProblem(badSecond) == "not TZif data (bad magic)")
    }

    @Test func countsThatOverflowTheFileOrAreAbsurd() {
        for header in [0, second] {
            let huge = setting(good, header: header, count: 3, to: .max)
            #expect(tzifProblem(huge)?.contains("truncated") == true, "\(tzifProblem(huge) ?? "")")
            #expect(
                tzifProblem(setting(good, header: header, count: 2, to: 0x4000_0000))?.contains("truncated") == true)
        }
        #expect(tzifProblem(setting(good, header: second, count: 4, to: 0)) == "0 local time types (1 to 256 allowed)")
        #expect(
            tzifProblem(setting(good, header: second, count: 4, to: 70_000))?.contains("70000 local time types") == true
        )
        #expect(tzifProblem(setting(good, header: second, count: 5, to: 0)) == "no time zone abbreviations")
        #expect(tzifProblem(setting(good, header: second, count: 1, to: 1))?.contains("indicator counts") == true)
    }

    @Test func valuesThatBreakTheRules() {
        var file = TZifFile.berlin2026
        file.transitions = [(1_792_890_000, 0), (1_774_746_000, 1)]
        #expect(tzifProblem(file.bytes) == "transition times that are not in ascending order")
        file = .berlin2026
        file.transitions[1].type = 7
        #expect(tzifProblem(file.bytes) == "a transition to a type that does not exist")
        file = .berlin2026
        file.types[1].abbreviation = 200
        #expect(tzifProblem(file.bytes) == "an abbreviation index past the abbreviations")
        file = .berlin2026
        file.types[0].offset = .min
        #expect(tzifProblem(file.bytes) == "an offset from UTC beyond 25 hours")
        file = .berlin2026
        file.leaps = [(100, 1), (50, 2)]
        #expect(tzifProblem(file.bytes) == "a leap second table out of order or out of range")
    }

    @Test func malformedFooters() {
        var file = TZifFile.berlin2026
        file.footer = "CET-1CEST,M3.5.0"
        #expect(tzifProblem(file.bytes)?.hasPrefix("malformed footer: ") == true)
        #expect(tzifProblem(Array(good.dropLast())) == "malformed footer: no newline after its rule")
        var noNewline = good
        noNewline[noNewline.count - 1 - "CET-1CEST,M3.5.0,M10.5.0/3".utf8.count - 1] = UInt8(ascii: "x")
        #expect(tzifProblem(noNewline)?.contains("footer") == true)
        file.footer = "CET-1\u{0}CEST"
        #expect(tzifProblem(file.bytes)?.contains("?") == true, "a NUL is shown as ?")
    }

    /// Seeded random damage to real files: flipped, overwritten and inserted bytes, random counts,
    /// cuts and splices. Every result is a rules value or an error; rules that read answer for any
    /// instant within ±25 hours (±1 day of leap seconds).
    @Test func thousandsOfMutationsOfRealFilesNeverTrap() throws {
        let names = [
            "Europe/Berlin", "Asia/Gaza", "Australia/Lord_Howe", "America/St_Johns", "Etc/UTC",
            "Asia/Kathmandu", "America/Nuuk",
        ]
        // A file with leap seconds, made here: the right/ zones are in Debian 13's tzdata-legacy,
        // not its tzdata (the package build's root has tzdata only).
        var leap = TZifFile.berlin2026
        leap.leaps = [(78_796_800, 1), (94_694_401, 2), (126_230_402, 3)]
        #expect(tzifProblem(leap.bytes) == nil)
        let originals = try names.map { try #require(SystemZones.bytes($0), "\($0)") } + [good, leap.bytes]
        var rng = SplitMix64(seed: 0x7A1F)
        var read = 0
        var rejected: [String: Int] = [:]
        let instants: [Instant] = [.min, -1 << 59, -1, 0, 1_774_746_000, 4_102_444_800, 1 << 59, .max]
        for _ in 0..<6000 {
            let original = originals[Int(rng.next() % UInt64(originals.count))]
            let mutated = Self.mutate(original, &rng)
            do {
                let rules = try TZif.rules(from: mutated)
                read += 1
                for t in instants { #expect(abs(rules.offset(at: t)) < 190_000) }
            } catch {
                rejected[String(error.message.prefix(24)), default: 0] += 1
            }
        }
        print(
            "TZif fuzz: 6000 mutations, \(read) still read, rejected: \(rejected.sorted { $0.value > $1.value }.prefix(8))"
        )
        #expect(rejected.values.reduce(0, +) > 1000)
    }

    static func mutate(_ bytes: [UInt8], _ rng: inout SplitMix64) -> [UInt8] {
        var b = bytes
        for _ in 0...(rng.next() % 3) {
            let at = b.isEmpty ? 0 : Int(rng.next() % UInt64(b.count))
            switch rng.next() % 7 {
            case 0: if !b.isEmpty { b[at] ^= UInt8(truncatingIfNeeded: 1 << (rng.next() % 8)) }
            case 1: if !b.isEmpty { b[at] = UInt8(truncatingIfNeeded: rng.next()) }
            case 2: b = Array(b.prefix(at))
            case 3:
                // A count field of either header: random, huge, or small.
                let header = rng.next() % 2 == 0 ? 0 : max(0, b.count / 2)
                let field = header + 20 + 4 * Int(rng.next() % 6)
                let value: [UInt32] = [.max, 0, 1, 255, 256, UInt32(truncatingIfNeeded: rng.next())]
                if field + 4 <= b.count {
                    b.replaceSubrange(
                        field..<field + 4, with: TZifFile.bigEndian(Int64(value[Int(rng.next() % 6)]), size: 4))
                }
            case 4:
                b.insert(
                    contentsOf: [UInt8](repeating: UInt8(truncatingIfNeeded: rng.next()), count: Int(rng.next() % 16)),
                    at: at)
            case 5: b.removeSubrange(at..<min(b.count, at + Int(rng.next() % 64)))
            default:
                // Splice a stretch of the file over another place.
                let from = Int(rng.next() % UInt64(max(1, b.count)))
                let chunk = Array(b[min(from, b.count)..<min(b.count, from + 32)])
                b.replaceSubrange(at..<min(b.count, at + chunk.count), with: chunk)
            }
        }
        return b
    }
}
