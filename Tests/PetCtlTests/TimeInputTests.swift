import Foundation
import PetCore
import Testing

@testable import petctl

/// petctl's forgiving times against the shared table of accepted and refused examples
/// (Fixtures/time-input.tsv): what each input sends on the bus, or that it is refused.
@Suite struct TimeInputTests {
    struct Row: CustomStringConvertible, Sendable {
        let input, now, dayEnd, expected: String
        var description: String { "\(input) at \(now)" }
    }

    static let rows: [Row] = {
        let path = String(#filePath.dropLast("TimeInputTests.swift".count)) + "Fixtures/time-input.tsv"
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { return [] }
        return text.split(separator: "\n").dropFirst(5).filter { !$0.hasPrefix("#") }.map {
            let f = $0.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            return Row(input: f[0], now: f[1], dayEnd: f[2], expected: f[3])
        }
    }()

    /// Unix seconds and the offset of `2026-03-02T08:10:30+01:00`.
    static func instant(_ iso: String) -> (Instant, Int) {
        let c = Array(iso)
        func n(_ r: Range<Int>) -> Int { Int(String(c[r])) ?? 0 }
        let date = CivilDate(parsing: String(c[0..<10]))!
        let offset = (c[19] == "-" ? -1 : 1) * (n(20..<22) * 3600 + n(23..<25) * 60)
        let local = Instant(date.daysSinceEpoch) * 86400 + Instant(n(11..<13) * 3600 + n(14..<16) * 60 + n(17..<19))
        return (local - Instant(offset), offset)
    }

    @Test func theTableIsThere() { #expect(Self.rows.count >= 40) }

    @Test(arguments: rows) func eachExample(_ row: Row) {
        let (now, offset) = Self.instant(row.now)
        let (end, _) = Self.instant(row.dayEnd)
        func wall(_ t: Instant) -> String {
            let minutes = Int(((t + Instant(offset)) % 86400 + 86400) % 86400 / 60)
            return WallTime(hour: minutes / 60, minute: minutes % 60)!.description
        }
        do {
            let sent = try TimeInput.parse(row.input).resolve(now: now, dayEnd: end, wallTime: wall)
            #expect(sent == row.expected, "\(row)")
        } catch {
            #expect(row.expected == "refused", "\(row): \(error.message)")
            #expect(error.message.contains("e.g.") || error.message.contains("petctl add"), "\(error.message)")
        }
    }

    @Test func aBareHourSaysWhyAndWhatToWrite() {
        // An hour alone past 12 only needs its minutes; past 23 it is no hour (no "25:00" offered).
        #expect(throws: TimeInputError("\"13\" needs its minutes: write 13:00 (\(TimeInput.examples))")) {
            try TimeInput.parse("13")
        }
        #expect(throws: TimeInputError("\"25\" is not a time petctl understands (\(TimeInput.examples))")) {
            try TimeInput.parse("25")
        }
        #expect(throws: TimeInputError("\"7\" is ambiguous: write 7:00, 7am or 7pm (\(TimeInput.examples))")) {
            try TimeInput.parse("7")
        }
    }
}
