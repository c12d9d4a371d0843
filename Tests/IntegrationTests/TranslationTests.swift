import Foundation
import TestSupport
import Testing

/// petctl in German and French: the real daemon on a private bus, the real petctl with the
/// catalogues the build compiled beside it (`make locale`). Every expectation is the hand-written
/// sentence, so a petctl that finds no catalogue (and speaks English) fails here.
@Suite("petctl in German and French")
struct TranslationTests {
    /// One language's sentences for the everyday commands.
    struct Language: Sendable, CustomStringConvertible {
        let locale: String
        let added: String
        let done: String
        let snoozed: String
        let badTime: String
        let addAbstract: String
        let unreachable: String
        var description: String { locale }
        var environment: [String: String] { ["LANG": locale, "LC_ALL": locale] }
    }

    static let german = Language(
        locale: "de_DE.UTF-8",
        added: "Aufgabe 1 hinzugefügt: 09:00 Yoga (heute).\n",
        done: "Erledigt: 1 Yoga, +2 EP (pünktlich).\n",
        snoozed: "Aufgeschoben: 2 Lesen auf ",
        badTime:
            "petctl: \"25:00\" ist keine Uhrzeit, die petctl versteht (z. B. 14:30, 7:05, 0705, 7pm, 7:05pm, 19h, +20m oder +1h30m) (siehe petctl help add)\n",
        addAbstract: "Eine Aufgabe für heute (oder morgen) anlegen, einmalig oder wiederkehrend.",
        unreachable: "petctl: petprogressd ist auf dem Sitzungsbus nicht erreichbar (")

    static let french = Language(
        locale: "fr_FR.UTF-8",
        added: "Tâche 1 ajoutée\u{A0}: 09:00 Yoga (aujourd'hui).\n",
        done: "Faite\u{A0}: 1 Yoga, +2 XP (à l'heure).\n",
        snoozed: "Reportée\u{A0}: 2 Lesen à ",
        badTime:
            "petctl: \"25:00\" n'est pas une heure que petctl comprend (p. ex. 14:30, 7:05, 0705, 7pm, 7:05pm, 19h, +20m ou +1h30m) (voir petctl help add)\n",
        addAbstract: "Ajouter une tâche pour aujourd'hui (ou demain), ponctuelle ou récurrente.",
        unreachable: "petctl: petprogressd est injoignable sur le bus de session (")

    @Test("add, done, snooze, a bad time, help add and an unreachable daemon", arguments: [german, french])
    func everydayCommands(_ language: Language) async throws {
        let world = try await World("ctl-l10n")
        defer { world.close() }
        let env = language.environment

        let unreachable = try await world.petctl(["today"], environment: env)
        #expect(unreachable.status == 3 && unreachable.output.isEmpty, "\(unreachable)")
        #expect(unreachable.errors.hasPrefix(language.unreachable), "\(unreachable)")
        #expect(unreachable.errors.hasSuffix("systemctl --user status petprogress\n"), "\(unreachable)")

        _ = try await world.daemon(now: "2026-03-02T09:00:00+01:00")
        #expect(try await world.petctlOK(["add", "9:00", "Yoga"], environment: env) == language.added)
        _ = try await world.petctlOK(["add", "10:00", "Lesen"], environment: env)
        #expect(try await world.petctlOK(["done"], environment: env) == language.done)
        let snoozed = try await world.petctlOK(["snooze"], environment: env)
        #expect(snoozed.hasPrefix(language.snoozed) && snoozed.hasSuffix(".\n"), "\(snoozed)")

        let bad = try await world.petctl(["add", "25:00", "Yoga"], environment: env)
        #expect(bad.status == 64 && bad.output.isEmpty && bad.errors == language.badTime, "\(bad)")

        let help = try await world.petctlOK(["help", "add"], environment: env)
        // argument-parser wraps the text to the width (80 here): compare it unwrapped.
        let words = help.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        #expect(words.hasPrefix("OVERVIEW: \(language.addAbstract)"), "\(help)")
        let flag = try await world.petctlOK(["add", "--help"], environment: env)
        #expect(flag == help)
    }

    /// The daemon's rejections: a sentence of petctl's own for each error name where it says
    /// enough, the daemon's English behind a translated lead-in where the detail matters, and the
    /// daemon's sentence unchanged under C.
    @Test("the daemon's rejections in the user's language, and unchanged under C")
    func rejections() async throws {
        let world = try await World("ctl-l10n-err")
        defer { world.close() }
        _ = try await world.daemon(now: "2026-03-02T09:00:00+01:00")
        _ = try await world.petctlOK(["add", "9:00", "Yoga"])
        let cases: [([String], [String: String])] = [
            (
                ["undo", "1"],
                [
                    "C.UTF-8": "petctl: Task 1 is not done, so there is nothing to undo.\n",
                    "de_DE.UTF-8":
                        "petctl: Diese Aufgabe ist nicht erledigt, es gibt also nichts rückgängig zu machen.\n",
                    "fr_FR.UTF-8": "petctl: Cette tâche n'est pas faite\u{A0}: il n'y a rien à annuler.\n",
                ]
            ),
            (
                ["rest", "2026-02-01"],
                [
                    "C.UTF-8":
                        "petctl: 2026-02-01 is in the past; only the open day (2026-03-02) and later days can change.\n",
                    "de_DE.UTF-8":
                        "petctl: Dieser Tag ist vorbei und lässt sich nicht mehr ändern; nur heute und spätere Tage.\n",
                    "fr_FR.UTF-8":
                        "petctl: Cette journée est terminée et ne peut plus changer\u{A0}; seuls aujourd'hui et les jours suivants le peuvent.\n",
                ]
            ),
            (
                ["rest", "2026-03-05", "2026-03-04"],
                [
                    "C.UTF-8": "petctl: The range runs backwards: 2026-03-05 is after 2026-03-04.\n",
                    "de_DE.UTF-8":
                        "petctl: petprogressd hat die Anfrage abgelehnt: The range runs backwards: 2026-03-05 is after 2026-03-04.\n",
                    "fr_FR.UTF-8":
                        "petctl: petprogressd a refusé la demande\u{A0}: The range runs backwards: 2026-03-05 is after 2026-03-04.\n",
                ]
            ),
        ]
        for (arguments, sentences) in cases {
            for (locale, sentence) in sentences {
                let result = try await world.petctl(arguments, environment: ["LANG": locale, "LC_ALL": locale])
                #expect(result.status == 1 && result.output.isEmpty, "\(locale) \(arguments): \(result)")
                #expect(result.errors == sentence, "\(locale) \(arguments)")
            }
        }
        _ = try await world.petctlOK(["done", "1"])
        let again = try await world.petctl(
            ["done", "1"], environment: ["LANG": "de_DE.UTF-8", "LC_ALL": "de_DE.UTF-8"])
        #expect(
            again.status == 1
                && again.errors == "petctl: Diese Aufgabe ist schon erledigt; mit petctl undo wird sie wieder offen.\n",
            "\(again)")
    }

    /// One plural (`%d task`) at 0, 1, 2 and 5 in each language: French says "0 tâche", German
    /// and English "0 Aufgaben", "0 tasks" (each language's own rule, from its catalogue's header).
    @Test("a plural at 0, 1, 2 and 5 tasks in English, German and French")
    func plurals() async throws {
        let world = try await World("ctl-plural")
        defer { world.close() }
        _ = try await world.daemon(now: "2026-03-02T09:00:00+01:00")
        let export = world.sandbox.path("export.json")
        let expected: [(Int, [String: String])] = [
            (0, ["C.UTF-8": "with 0 tasks,", "de_DE.UTF-8": "mit 0 Aufgaben,", "fr_FR.UTF-8": "avec 0 tâche,"]),
            (1, ["C.UTF-8": "with 1 task,", "de_DE.UTF-8": "mit 1 Aufgabe,", "fr_FR.UTF-8": "avec 1 tâche,"]),
            (2, ["C.UTF-8": "with 2 tasks,", "de_DE.UTF-8": "mit 2 Aufgaben,", "fr_FR.UTF-8": "avec 2 tâches,"]),
            (5, ["C.UTF-8": "with 5 tasks,", "de_DE.UTF-8": "mit 5 Aufgaben,", "fr_FR.UTF-8": "avec 5 tâches,"]),
        ]
        var added = 0
        for (count, sentences) in expected {
            while added < count {
                added += 1
                _ = try await world.petctlOK(["add", "1\(added):00", "Task \(added)"])
            }
            _ = try await world.petctlOK(["export", "--output", export, "--force"])
            for (locale, fragment) in sentences {
                let report = try await world.petctlOK(
                    ["import", export, "--check", "--replace"], environment: ["LANG": locale, "LC_ALL": locale])
                #expect(report.contains(" 2026-03-02 \(fragment)"), "\(locale), \(count): \(report)")
            }
        }
    }
}
