import Foundation
import TestSupport
import Testing

/// `petctl history` and `petctl log` in the user's language (petprogress(7) §7): the week from the
/// locale's first day under its own day names, dates in its word order, 12-hour clocks where its
/// time format has them. The C.UTF-8 screens are HistoryCommandTests' and LogCommandTests'.
/// Expected lines are written by hand.
@Suite("petctl history and log in German, French and US English")
struct LocaleHistoryTests {
    /// The sandbox sets LC_ALL=C.UTF-8; a person's session sets LANG.
    static func lang(_ name: String) -> [String: String] { ["LANG": name, "LC_ALL": name] }

    static func full(_ n: Int) -> String { String(repeating: "█", count: n) }
    static func spaces(_ n: Int) -> String { String(repeating: " ", count: n) }

    /// HistoryCommandTests' month in German: Monday first, German heads, `3. Feb`.
    static let german40 = """
        Letzte 28 Tage, 3. Feb bis 2. Mär
                 Mo  Di  Mi  Do  Fr  Sa  So
         2. Feb      ███ ▒▒▒ ░░░ ▓▓▓  z   ·
         9. Feb  ███ ███  -  ▓▓▓ ███  z   z
        16. Feb  ▒▒▒ ░░░ ███ ▓▓▓ ███  ·   ·
        23. Feb  ▓▓▓ ███ ░░░ ░░░ ███ ▓▓▓ ▒▒▒
         2. Mär  [▒]
        Abgeschlossene Tage: 41 von 64 Aufgaben
        erledigt (64 %), 3 Ruhetage, 3 Tage ohne
        Eintrag.
        ███ alles erledigt  ▓▓▓ 80 % oder mehr
        ▒▒▒ 40–79 %  ░░░ unter 40 %  z Ruhetag
        ~ Abwesenheitstag  ^ Rückkehrtag
        - keine Aufgaben  · kein Eintrag
        [ ] heute

        Das Haustier am Ende jedes Tages
        Einsiedl… \(spaces(16))▁▂▂▂▄▅▃▂▃▅▅▅
        Frosch    \(spaces(6))▁▂▂▄▆▆▇▇▅▆\(full(12))
        Elritze   ▅▅▂▅▆▆\(full(22))
                  3. Feb\(spaces(17))heute

        """

    /// The same month in the United States: Sunday first, so the weeks (and their totals) start
    /// a day earlier: 1 Feb is before the range, 1 Mar (50 %) shares a row with today.
    static let american80Heatmap = """
        Last 28 days, 3 Feb to 2 Mar
                Sun Mon Tue Wed Thu Fri Sat
         1 Feb          ███ ▒▒▒ ░░░ ▓▓▓  z   8 of 14 done
         8 Feb   ·  ███ ███  -  ▓▓▓ ███  z   10 of 12 done
        15 Feb   z  ▒▒▒ ░░░ ███ ▓▓▓ ███  ·   10 of 16 done
        22 Feb   ·  ▓▓▓ ███ ░░░ ░░░ ███ ▓▓▓  12 of 20 done
         1 Mar  ▒▒▒ [▒]                      1 of 2 done
        """

    @Test("history under de_DE starts on Monday with German heads and dates; under en_US on Sunday")
    func scriptedMonth() async throws {
        let world = try await World("ctl-history-locale")
        defer { world.close() }
        _ = try await ScriptedMonth.live(world, data: world.sandbox.path("data"))

        let german = try await world.petctlOK(["history"], columns: 40, environment: Self.lang("de_DE.UTF-8"))
        #expect(german == Self.german40, "\n\(german)")
        let germanWide = try await world.petctlOK(["history"], columns: 80, environment: Self.lang("de_DE.UTF-8"))
        #expect(germanWide.contains("\n23. Feb  ▓▓▓ ███ ░░░ ░░░ ███ ▓▓▓ ▒▒▒  13 von 22 erledigt\n"), "\n\(germanWide)")
        let plain = try await world.petctlOK(
            ["history", "--plain", "--days", "2"], environment: Self.lang("de_DE.UTF-8"))
        #expect(
            plain == """
                2026-03-01 Sonntag: 1 von 2 erledigt (50 %), ±0 EP; Einsiedlerkrebs 21/40.
                2026-03-02 Montag: heute, bisher 1 von 2 erledigt; Einsiedlerkrebs 23/40 jetzt.

                """, "\n\(plain)")

        let french = try await world.petctlOK(["history"], columns: 80, environment: Self.lang("fr_FR.UTF-8"))
        #expect(
            french == """
                Les 28 derniers jours, du 3 févr. au 2 mars
                          lun mar mer jeu ven sam dim
                 2 févr.      ███ ▒▒▒ ░░░ ▓▓▓  z   ·   8 sur 14 faites
                 9 févr.  ███ ███  -  ▓▓▓ ███  z   z   11 sur 14 faites
                16 févr.  ▒▒▒ ░░░ ███ ▓▓▓ ███  ·   ·   9 sur 14 faites
                23 févr.  ▓▓▓ ███ ░░░ ░░░ ███ ▓▓▓ ▒▒▒  13 sur 22 faites
                  2 mars  [▒]
                Jours clos\u{A0}: 41 tâches faites sur 64 (64 %), 3 jours de repos, 3 jours sans
                relevé.
                ███ tout fait  ▓▓▓ 80 % ou plus  ▒▒▒ 40–79 %  ░░░ moins de 40 %  z jour de repos
                ~ jour d'absence  ^ jour de retour  - aucune tâche  · aucun relevé
                [ ] aujourd'hui

                Le compagnon à la fin de chaque jour
                Bernard-l'erm…                                 ▁▁▂▂▂▂▂▂▄▄▅▅▃▃▂▂▃▃▅▅▅▅▅▅
                Grenouille                 ▁▁▂▂▂▂▄▄▆▆▆▆▇▇▇▇▅▅▆▆\(Self.full(24))
                Vairon         ▅▅▅▅▂▂▅▅▆▆▆▆\(Self.full(44))
                               3 févr.                                      aujourd'hui

                """, "\n\(french)")

        // At 40 columns nothing is cut mid-word: the French header wraps.
        let frenchNarrow = try await world.petctlOK(["history"], columns: 40, environment: Self.lang("fr_FR.UTF-8"))
        #expect(frenchNarrow.hasPrefix("Les 28 derniers jours, du 3\u{A0}févr. au\n2\u{A0}mars\n"), "\n\(frenchNarrow)")

        let american = try await world.petctlOK(["history"], columns: 80, environment: Self.lang("en_US.UTF-8"))
        #expect(american.hasPrefix(Self.american80Heatmap + "\n"), "\n\(american)")
    }

    @Test("log under fr_FR: French dates and words; under en_US: 12-hour times")
    func scriptedDay() async throws {
        let world = try await World("ctl-log-locale")
        defer { world.close() }
        let data = world.sandbox.path("data")
        try await LogCommandTests.script(world, data: data)
        _ = try await world.daemon(dataDirectory: data, now: "2026-03-04T10:00:00+01:00")

        let french = try await world.petctlOK(
            ["log", "--days", "2"], columns: 80, environment: Self.lang("fr_FR.UTF-8"))
        #expect(
            french == """
                lun. 2 mars  +2 Write report (à l'heure, 14:31)  +1 Email (après l'heure, 18:02)
                             −2 Walk (manquée)  pas de bilan du jour (2 sur 3 faites)
                             → Têtard 1/10 (avant\u{A0}: Têtard 0/10)
                mar. 3 mars  ±0 Read (pas faite, jour de repos)
                             pas de bilan du jour\u{A0}: jour de repos  → Têtard 1/10 (inchangé)

                """, "\n\(french)")
        let frenchNarrow = try await world.petctlOK(
            ["log", "2026-03-02", "--days", "2"], columns: 40, environment: Self.lang("fr_FR.UTF-8"))
        #expect(
            frenchNarrow == """
                dim. 1 mars
                  aucun relevé (rien n'a changé ce jour-là)
                lun. 2 mars
                  +2 Write report (à l'heure, 14:31)
                  +1 Email (après l'heure, 18:02)
                  −2 Walk (manquée)
                  pas de bilan du jour (2 sur 3 faites)
                  → Têtard 1/10 (avant\u{A0}: Têtard 0/10)

                """, "\n\(frenchNarrow)")

        let german = try await world.petctlOK(
            ["log", "--days", "2"], columns: 80, environment: Self.lang("de_DE.UTF-8"))
        #expect(
            german == """
                Mo, 2. Mär  +2 Write report (pünktlich, 14:31)  +1 Email (spät, 18:02)
                            −2 Walk (verpasst)  kein Tagesergebnis (2 von 3 erledigt)
                            → Kaulquappe 1/10 (vorher Kaulquappe 0/10)
                Di, 3. Mär  ±0 Read (nicht erledigt, Ruhetag)  kein Tagesergebnis: Ruhetag
                            → Kaulquappe 1/10 (unverändert)

                """, "\n\(german)")
        let germanNarrow = try await world.petctlOK(
            ["log", "2026-03-02", "--days", "2"], columns: 40, environment: Self.lang("de_DE.UTF-8"))
        #expect(
            germanNarrow == """
                So, 1. Mär
                  kein Eintrag (an dem Tag hat sich nichts geändert)
                Mo, 2. Mär
                  +2 Write report (pünktlich, 14:31)
                  +1 Email (spät, 18:02)
                  −2 Walk (verpasst)
                  kein Tagesergebnis (2 von 3 erledigt)
                  → Kaulquappe 1/10
                  (vorher Kaulquappe 0/10)

                """, "\n\(germanNarrow)")

        let american = try await world.petctlOK(
            ["log", "2026-03-02"], columns: 80, environment: Self.lang("en_US.UTF-8"))
        #expect(
            american == """
                Mon 2 Mar  +2 Write report (on time, 2:31 PM)  +1 Email (late, 6:02 PM)
                           −2 Walk (missed)  no daily result (2 of 3 done)
                           → Tadpole 1/10 (was Tadpole 0/10)

                """, "\n\(american)")

        // Sent as HH:MM whatever the locale (the daemon's clock runs on from 10:00, so read the
        // minute it chose from the C screen), shown as 10:MM AM under en_US.
        _ = try await world.petctlOK(["add", "+20m", "Stretch"], environment: Self.lang("en_US.UTF-8"))
        let c = try await world.petctlOK(["today"], columns: 80)
        let line = try #require(c.split(separator: "\n").first { $0.hasSuffix("next") && $0.contains("Stretch") })
        #expect(line.hasPrefix("1  10:") && line.dropFirst(8).hasPrefix(" → Stretch"), "\(line)")
        let minute = line.dropFirst(6).prefix(2)
        let today = try await world.petctlOK(["today"], columns: 80, environment: Self.lang("en_US.UTF-8"))
        #expect(today.contains("1  10:\(minute) AM → Stretch"), "\n\(today)")
    }
}
