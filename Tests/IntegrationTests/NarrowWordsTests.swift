import Foundation
import TestSupport
import Testing

/// At 40 columns nothing is cut mid-word (issue 38.5): a task's notes that do not fit under its
/// title go whole onto the next line, in German and French as in English.
@Suite("40 columns: whole words")
struct NarrowWordsTests {
    @Test(arguments: [
        ("de_DE.UTF-8", ["nächste · überfällig", "täglich"]), ("fr_FR.UTF-8", ["suivante · en retard", "chaque jour"]),
    ])
    func notesAreNeverCut(_ locale: String, _ expected: [String]) async throws {
        let world = try await World("narrow-words")
        defer { world.close() }
        _ = try await world.daemon(now: "2026-03-02T09:10:00+01:00")
        _ = try world.client().addTaskFor("Blumen gießen", "08:00", day: "today", repeat: "daily")
        let screen = try await world.petctlOK(["today"], columns: 40, environment: ["LANG": locale, "LC_ALL": locale])
        let lines = screen.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        for note in expected { #expect(lines.contains(note), "\(locale): \(note)\n\(screen)") }
        #expect(!screen.contains("…"), "\(locale):\n\(screen)")
        #expect(screen.split(separator: "\n").allSatisfy { $0.count <= 40 }, "\(locale):\n\(screen)")
    }
}
