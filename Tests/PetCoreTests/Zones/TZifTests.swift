import Foundation
import Testing

@testable import PetCore

/// The TZif reader (RFC 8536) on the system's files, on files made to order (version 1, version 4,
/// leap seconds) and on damaged ones: every defect is a `ZoneError` naming it, never a trap.
@Suite struct TZifTests {
    func rules(_ file: TZifFile) throws -> ZoneRules { try TZif.rules(from: file.bytes) }

    @Test func aMadeFileReadsAsWritten() throws {
        let r = try rules(.berlin2026)
        #expect(r.offset(at: 1_774_745_999) == 3600)
        #expect(r.offset(at: 1_774_746_000) == 7200)
        #expect(r.offset(at: 1_792_889_999) == 7200)
        // From the last transition on, the footer rules: summer 2027 is CEST again.
        #expect(r.offset(at: at("2027-07-01T00:00:00Z")) == 7200)
        #expect(r.offset(at: at("2100-01-01T00:00:00Z")) == 3600)
        // Before the first transition: the first standard-time type.
        #expect(r.offset(at: 0) == 3600)
    }

    @Test func versionOneHasNoFooterAndKeepsTheLastOffset() throws {
        var file = TZifFile.berlin2026
        file.version = 0
        let r = try rules(file)
        #expect(r.offset(at: 1_774_746_000) == 7200)
        #expect(r.offset(at: at("2027-07-01T00:00:00Z")) == 3600)
    }

    @Test func theFirstStandardTypeRulesBeforeTheFirstTransition() throws {
        var file = TZifFile.berlin2026
        file.types.swapAt(0, 1)
        file.transitions = [(1_774_746_000, 0), (1_792_890_000, 1)]
        #expect(try rules(file).offset(at: 0) == 3600)
        file.types[1].isDaylight = true
        #expect(try rules(file).offset(at: 0) == 7200, "all daylight: type 0")
    }

    @Test func anEmptyFooterOrNoTransitionsAtAll() throws {
        var file = TZifFile.berlin2026
        file.footer = ""
        #expect(try rules(file).offset(at: at("2027-07-01T00:00:00Z")) == 3600)
        var fixed = TZifFile()
        fixed.footer = "CET-1CEST,M3.5.0,M10.5.0/3"
        #expect(try rules(fixed).offset(at: at("2026-07-01T00:00:00Z")) == 7200, "no transitions: the footer")
    }

    @Test func leapSecondsPutTheClockBehindAsGlibcDoes() throws {
        var file = TZifFile()
        file.footer = ""
        file.leaps = [(78_796_800, 1), (94_694_401, 2)]
        let r = try rules(file)
        #expect(r.offset(at: 78_796_799) == 3600)
        #expect(r.offset(at: 78_796_800) == 3599)
        #expect(r.offset(at: 94_694_401) == 3598)
        // Version 4: the table may start with any correction (it was truncated at the start).
        file.version = UInt8(ascii: "4")
        file.leaps = [(1_483_228_826, 27)]
        #expect(try rules(file).offset(at: 1_500_000_000) == 3600 - 27)
    }

    @Test func everyFileUnderZoneinfoReads() throws {
        let root = SystemZones.directory
        let files = try #require(FileManager.default.subpathsOfDirectory(atPath: root) as [String]?)
        var read = 0
        var versions: [UInt8: Int] = [:]
        for path in files {
            guard let bytes = SystemZones.bytes(path), bytes.starts(with: Array("TZif".utf8)) else { continue }
            #expect(tzifProblem(bytes) == nil, "\(path): \(tzifProblem(bytes) ?? "")")
            versions[bytes[4], default: 0] += 1
            read += 1
        }
        print(
            "TZif: read \(read) files under \(root); versions \(versions.map { "\(Character(UnicodeScalar($0.key == 0 ? 0x31 : $0.key))): \($0.value)" }.sorted())"
        )
        // Debian 12's tzdata has about 1,260 zone files and links, Debian 13's about 490 (right/,
        // posix/ and the old names moved to tzdata-legacy).
        #expect(read > 400)
        #expect(versions[UInt8(ascii: "3")] != nil, "Debian's tzdata has version 3 files (Asia/Gaza)")
    }

    /// A fat file cut to its version 1 block reads the same as its 64-bit data within 1901–2038.
    @Test func theVersionOneBlockOfEveryZoneAgreesWithItsSixtyFourBitData() throws {
        for name in try SystemZones.names() {
            let bytes = try #require(SystemZones.bytes(name))
            var v1 = Array(bytes.prefix(44))
            v1[4] = 0
            let counts = (0..<6).map { i in bytes[20 + 4 * i..<24 + 4 * i].reduce(0) { $0 << 8 | Int($1) } }
            let length = counts[3] * 5 + counts[4] * 6 + counts[5] + counts[2] * 8 + counts[1] + counts[0]
            v1 += bytes[44..<44 + length]
            let full = try TZif.rules(from: bytes)
            let old = try TZif.rules(from: v1)
            #expect(old.tail == nil, "version 1 has no footer")
            for t in Self.probes(old.times) where t > Int64(Int32.min) && t < Int64(Int32.max) {
                #expect(old.offset(at: t) == full.offset(at: t), "\(name) at \(t)")
            }
        }
    }

    /// Debian's files are "fat" (transitions listed to 2037); zic's "slim" output lists them only
    /// until the rules last changed and leaves the rest to the footer. Slim files made from the
    /// system's tzdata.zi must read as glibc's zdump reads them, 2005–2039: at each change either
    /// side, and in the middle of every stretch between changes.
    @Test func slimFilesFromZicReadAsGlibcReadsThem() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("slim-\(getpid())").path
        defer { try? FileManager.default.removeItem(atPath: dir) }
        _ = try SystemZones.run("/usr/sbin/zic", ["-b", "slim", "-d", dir, SystemZones.tzdataPath])
        let names = try SystemZones.names()
        // zdump steps through every year it is asked for: 35 years of 447 zones take 3 s already.
        let oracle = try ZoneOracle.dump(names.map { dir + "/" + $0 }, fromYear: 2005, toYear: 2040)
        let start = at("2005-01-01T00:00:00Z")
        let end = at("2040-01-01T00:00:00Z")
        var compared = 0
        var fromFooter = 0
        for name in names {
            let slim = try TZif.rules(from: try #require(SystemZones.bytes(dir + "/" + name)))
            let timeline = try #require(oracle[dir + "/" + name], "zdump lists \(name)")
            let full = try TZif.rules(from: try #require(SystemZones.bytes(name)))
            #expect(slim.times.count <= full.times.count)
            let changes = timeline.changes.map(\.at)
            for t in Self.probes([start] + changes + [end]) + Self.probes(slim.times) where t >= start && t < end {
                if t > (slim.times.last ?? .min) { fromFooter += 1 }
                #expect(slim.offset(at: t) == timeline.offset(at: t), "\(name) at \(t)")
                compared += 1
            }
        }
        print(
            "TZif: slim files read as zdump reads them at \(compared) instants, \(fromFooter) of them from the footer")
        #expect(fromFooter > 10_000)
    }

    /// Each transition, the second before it, and the middle of the stretch after it.
    static func probes(_ times: [Instant]) -> [Instant] {
        var probes: [Instant] = []
        for (i, t) in times.enumerated() {
            probes += [t - 1, t]
            if i + 1 < times.count { probes.append(t + (times[i + 1] - t) / 2) }
        }
        return probes
    }
}
