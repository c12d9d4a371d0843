import Foundation
import PetCore
import Testing

@testable import petctl

/// The flip rule of `watch`, the interactive screen and the tray against the shared table
/// (Fixtures/flip-rule.tsv), which the GNOME Shell extension's tests read too.
@Suite struct FlipRuleTests {
    struct Row: CustomStringConvertible, Sendable {
        let tasks, daemonNow, realNow, scale, wait, why: String
        var description: String { why }
    }

    static let rows: [Row] = {
        let path = String(#filePath.dropLast("FlipRuleTests.swift".count)) + "Fixtures/flip-rule.tsv"
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { return [] }
        return text.split(separator: "\n").filter { !$0.hasPrefix("#") }.dropFirst().map {
            let f = $0.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            return Row(tasks: f[0], daemonNow: f[1], realNow: f[2], scale: f[3], wait: f[4], why: f[5])
        }
    }()

    /// `due_at/overdue_at/flags`, comma-separated; `-` for none.
    static func tasks(_ text: String) -> [TaskRecord] {
        guard text != "-" else { return [] }
        return text.split(separator: ",").map { task in
            let f = task.split(separator: "/").map(String.init)
            return TaskRecord(
                id: "", title: "", time: "", effectiveTime: "", dayKey: "", done: false, completedAt: 0,
                completedSeq: 0, snoozedUntil: 0, scheduledAt: 0, overdue: f[2].contains("o"), isNext: false, xp: 0,
                repeatRule: "", templateID: "", due: f[2].contains("d"), dueAt: Instant(f[0]) ?? -1,
                overdueAt: Instant(f[1]) ?? -1)
        }
    }

    @Test func theTableIsThere() { #expect(Self.rows.count >= 20) }

    @Test(arguments: rows) func eachRow(_ row: Row) throws {
        let got = FlipRule.wait(
            Self.tasks(row.tasks), daemonNow: try #require(Instant(row.daemonNow)),
            realNow: try #require(Double(row.realNow)), scale: try #require(Double(row.scale)))
        if row.wait == "none" {
            #expect(got == nil)
        } else {
            let expected = try #require(Double(row.wait))
            #expect(got.map { abs($0 - expected) < 1e-9 } == true, "got \(String(describing: got))")
        }
    }
}
