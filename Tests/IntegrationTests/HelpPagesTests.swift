import Foundation
import TestSupport
import Testing

/// Help and pages that match what the binaries do (issue 38.8): petctl's help (and so its
/// generated man page) lists exit status 4, `help history` says where the week starts,
/// petprogressd(1) lists every exit 78, and the GNOME extension's version is the product's.
@Suite("petctl and petprogressd: help and pages match")
struct HelpPagesTests {
    /// The repository, from this file's place in it.
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    static func file(_ path: String) throws -> String {
        try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)
    }

    /// The words, whatever the help's line breaks.
    static func flat(_ text: String) -> String {
        text.split(whereSeparator: { $0 == " " || $0 == "\n" }).joined(separator: " ")
    }

    @Test func helpListsExitStatusFourAndTheLocalesWeek() async throws {
        let world = try await World("help-pages")
        defer { world.close() }
        let help = try await world.petctl(["--help"], columns: 200)
        #expect(help.status == 0 && Self.flat(help.output).contains("4 the daemon did not answer in time"), "\(help)")
        let history = try await world.petctl(["help", "history"], columns: 200)
        #expect(Self.flat(history.output).contains("from the first day of the week in your locale"), "\(history)")
        #expect(Self.flat(history.output).contains("away days"), "\(history)")
        let version = try await world.petctl(["--version"])
        let metadata = try Self.file("contrib/gnome-shell/petprogress@petprogress.io/metadata.json")
        let trimmed = version.output.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(metadata.contains("\"version-name\": \"\(trimmed)\""), "\(trimmed): \(metadata)")
    }

    @Test func petprogressdsPageListsEveryExit78() throws {
        let page = try Self.file("docs/petprogressd.1")
        for cause in ["expect\\-data\\-dir", "another user", "symbolic link", "not sticky", "a FIFO"] {
            #expect(page.contains(cause), "petprogressd(1) lacks \(cause)")
        }
    }
}
