import Foundation
import PetCore
import Testing

/// POSIX TZ rules against glibc itself: for each form of the rule grammar, and for every distinct
/// footer of the system's zone files, `TZ=<rule> date` must show the same wall clock as the rule's
/// offset at every change the rule makes and twice a day between, in years from 1971 to 2100.
/// Then thousands of seeded mutations of those rules: each is a rule or an error, never a trap.
@Suite struct PosixTZGlibcTests {
    /// Every form of the grammar, and glibc's odd corners.
    static let forms = [
        "CET-1CEST,M3.5.0,M10.5.0/3", "<+0545>-5:45", "<-03>3", "UTC0", "<-00>0", "XXX+12", "XXX-14",
        "XXX-24", "XXX24", "XXX-1:02:03", "XXX3YYY,J60/2,J300/2", "XXX3YYY,J1/0,J365/23:59:59",
        "XXX3YYY,59/2,299/2", "XXX3YYY,0/0,365/0", "XXX3YYY,0,365", "<-02>2<-01>,M3.5.0/-1,M10.5.0/0",
        "EET-2EEST,M3.4.4/50,M10.4.4/50", "XXX0YYY,M3.5.0/167,M10.5.0/-167", "AEST-10AEDT,M10.1.0,M4.1.0/3",
        "IST-1GMT0,M10.5.0,M3.5.0/1", "<+1245>-12:45<+1345>,M9.5.0/2:45,M4.1.0/3:45",
        "XXX-1:02:03YYY-2:03:04,M4.1.3/-0:30,M9.5.6/25:30:45", "NZST-12NZDT,M9.5.0,M4.1.0/3",
        "<+1030>-10:30<+11>-11,M10.1.0,M4.1.0", "XXX5YYY,M1.1.0/0,M12.5.6/24", "XXX-13YYY,M2.5.0,M2.1.0",
        "EST5EDT,0/0,J365/25", "XXX5YYY,M3.5.0/-100,M10.5.0/100", "XXX-5YYY-7,M6.5.6/23,M7.1.0/1",
    ]
    // Not compared: a daylight name with no dates (`ABC5DEF`). PosixTZ then uses the United
    // States' rules, as POSIX systems' `posixrules` say; glibc 2.36 derives its dates from the
    // `posixrules` file and, on Debian 12, ends that daylight time on 2026-10-31 at 21:00 local
    // time, hours before New York does (`zdump -i -c 2026,2027 ABC5DEF`). PosixTZTests pins ours.

    static func footers() throws -> [String] {
        let footers = try SystemZones.names().compactMap { name -> String? in
            guard let bytes = SystemZones.bytes(name), bytes.last == 0x0A else { return nil }
            let line = bytes.dropLast().split(separator: 0x0A, omittingEmptySubsequences: false).last ?? []
            return String(decoding: line, as: UTF8.self)
        }
        return Array(Set(footers.filter { !$0.isEmpty })).sorted()
    }

    @Test func everyFormAndEveryFooterAgreesWithGlibc() async throws {
        let footers = try Self.footers()
        #expect(footers.count > 50)
        let years = [1971, 2000, 2024, 2026, 2038, 2100]
        let rules = Self.forms + footers
        // One `date` process per rule; two at a time.
        let checked = try await withThrowingTaskGroup(of: Int.self) { group in
            for rule in rules { group.addTask { try Self.compare(rule, years: years) } }
            return try await group.reduce(0, +)
        }
        print(
            "POSIX TZ: \(Self.forms.count) forms and \(footers.count) footers agree with glibc at \(checked) instants")
    }

    /// Compares the rule's offsets with glibc's at each change in `years` (both sides) and every
    /// twelve hours; the number of instants compared.
    static func compare(_ text: String, years: [Int]) throws -> Int {
        let rule = try PosixTZ(parsing: text)
        var instants: [Instant] = []
        for year in years {
            let start = Instant(firstDay(year, 1)) * 86_400
            var t = start + 1234
            while t < start + 366 * 86_400 {
                let next = t + 12 * 3600
                if rule.offset(at: t) != rule.offset(at: next) {
                    let change = Self.change(rule, from: t, to: next)
                    instants += [change - 1, change]
                }
                instants.append(t)
                t = next
            }
        }
        let glibc = try glibcOffsets(tz: text, at: instants)
        var failures = 0
        for (t, theirs) in zip(instants, glibc) where rule.offset(at: t) != theirs {
            failures += 1
            if failures <= 3 { Issue.record("\(text) at \(t): ours \(rule.offset(at: t)), glibc \(theirs)") }
        }
        #expect(glibc.count == instants.count)
        return instants.count
    }

    /// The first instant in (a, b] whose offset differs from a's.
    static func change(_ rule: PosixTZ, from a: Instant, to b: Instant) -> Instant {
        var lo = a
        var hi = b
        while hi - lo > 1 {
            let mid = lo + (hi - lo) / 2
            if rule.offset(at: mid) == rule.offset(at: a) { lo = mid } else { hi = mid }
        }
        return hi
    }

    /// glibc's offset at each instant under `TZ=tz`: the wall clock `date` prints, minus the instant.
    static func glibcOffsets(tz: String, at instants: [Instant]) throws -> [Int] {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent(
            "instants-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
        defer { try? FileManager.default.removeItem(at: file) }
        try Data(instants.map { "@\($0)\n" }.joined().utf8).write(to: file)
        let out = try SystemZones.run("/bin/date", ["-f", file.path, "+%Y-%m-%d %H %M %S"], environment: ["TZ": tz])
        return zip(out.split(separator: "\n"), instants).map { line, t in
            let f = line.split(separator: " ")
            guard f.count == 4, let day = CivilDate(parsing: String(f[0])), let h = Int(f[1]), let m = Int(f[2]),
                let s = Int(f[3])
            else { return Int.min }
            return Int(Instant(day.daysSinceEpoch) * 86_400 + Instant(h * 3600 + m * 60 + s) - t)
        }
    }

    /// Seeded random edits of real rules: each parses to a rule whose offsets stay within ±25
    /// hours, or is an error with a sentence; nothing traps and nothing hangs.
    @Test func thousandsOfMutatedRulesNeverTrap() throws {
        let seeds = Self.forms + (try Self.footers())
        let alphabet = Array("0123456789+-:,./<>JMabcXYZ \u{0}\u{7F}é".unicodeScalars)
        var rng = SplitMix64(seed: 0x5EED)
        var parsed = 0
        let count = 20_000
        for _ in 0..<count {
            var scalars = Array(seeds[Int(rng.next() % UInt64(seeds.count))].unicodeScalars)
            for _ in 0...(rng.next() % 3) {
                let at = Int(rng.next() % UInt64(scalars.count + 1))
                let pick = alphabet[Int(rng.next() % UInt64(alphabet.count))]
                switch rng.next() % 4 {
                case 0: scalars.insert(pick, at: at)
                case 1: if at < scalars.count { scalars[at] = pick }
                case 2: if at < scalars.count { scalars.remove(at: at) }
                default: scalars.insert(contentsOf: scalars[at...].prefix(Int(rng.next() % 8)), at: at)
                }
            }
            let text = String(String.UnicodeScalarView(scalars))
            do {
                let rule = try PosixTZ(parsing: text)
                parsed += 1
                for t: Instant in [.min, -1, 0, 1_774_746_000, 4_102_444_800, .max] {
                    #expect(abs(rule.offset(at: t)) < 90_000, "\(text)")
                }
            } catch {
                #expect(!error.message.isEmpty && !error.message.contains("\u{0}"))
            }
        }
        print("POSIX TZ fuzz: \(count) mutated rules, \(parsed) still rules")
        #expect(parsed > 1000 && parsed < count - 1000)
    }
}
