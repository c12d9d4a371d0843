import Foundation
import TestSupport
import Testing

/// The sentence a person reads of the entry, in their language and on their clock
/// (docs/DECISIONS.md, "Localisation"): the daemon's `accessible_text` is English with 24-hour times (petprogress(7) §6.2), so
/// petctl composes its own from the entry's other keys wherever a person reads one — the waybar
/// tooltip of `petctl watch`, the tray's ToolTip, `petctl today --plain`. Read through the real
/// binaries on a private bus under en_US (12-hour), de_DE and fr_FR (24-hour); the expected lines
/// are written by hand from po/de.po and po/fr.po. And the decimals petctl prints to a person take
/// the locale's separator (`0,8`) where the machine formats keep the point.
@Suite("the entry's sentence and decimals in the user's language and clock")
struct LocalSentenceTests {
    /// LANG and LC_ALL for `locale` (the sandbox sets LC_ALL=C.UTF-8, which would win over LANG).
    static func language(_ locale: String) -> [String: String] { ["LANG": locale, "LC_ALL": locale] }

    /// What one language expects of the world below: Stretch 09:00 (overdue), Write 14:30 and
    /// Cook 18:00, none done, a tadpole at 0 XP.
    struct Words: CustomTestStringConvertible, Sendable {
        let locale: String
        let tooltip: [String]
        let trayPet: String
        let trayText: String
        let plain: [String]
        var testDescription: String { locale }
    }

    static let american = Words(
        locale: "en_US.UTF-8",
        tooltip: ["Tadpole · stage 1 of 20 · 0/10 XP", "9:00 AM Stretch (overdue)", "2:30 PM Write", "6:00 PM Cook"],
        trayPet: "Tadpole · stage 1 of 20 · 0/10 XP", trayText: "0 of 3 done\nNext: 9:00 AM Stretch · overdue",
        plain: [
            "Tadpole, stage 1 of 20, 0 of 10 XP.", "0 of 3 tasks done.", "Next: 9:00 AM Stretch, overdue.",
            "Task 1 at 9:00 AM, Stretch: next, overdue.", "Task 2 at 2:30 PM, Write: pending.",
            "Task 3 at 6:00 PM, Cook: pending.",
        ])

    static let german = Words(
        locale: "de_DE.UTF-8",
        tooltip: ["Kaulquappe · Stufe 1 von 20 · 0/10 EP", "09:00 Stretch (überfällig)", "14:30 Write", "18:00 Cook"],
        trayPet: "Kaulquappe · Stufe 1 von 20 · 0/10 EP",
        trayText: "0 von 3 erledigt\nAls Nächstes: 09:00 Stretch · überfällig",
        plain: [
            "Kaulquappe, Stufe 1 von 20, 0 von 10 EP.", "0 von 3 Aufgaben erledigt.",
            "Als Nächstes: 09:00 Stretch, überfällig.", "Aufgabe 1 um 09:00, Stretch: nächste, überfällig.",
            "Aufgabe 2 um 14:30, Write: offen.", "Aufgabe 3 um 18:00, Cook: offen.",
        ])

    static let french = Words(
        locale: "fr_FR.UTF-8",
        tooltip: ["Têtard · stade 1 sur 20 · 0/10 XP", "09:00 Stretch (en retard)", "14:30 Write", "18:00 Cook"],
        trayPet: "Têtard · stade 1 sur 20 · 0/10 XP",
        trayText: "0 sur 3 faite\nEnsuite\u{A0}: 09:00 Stretch · en retard",
        plain: [
            "Têtard, stade 1 sur 20, 0 XP sur 10.", "0 sur 3 tâches faites.",
            "Ensuite\u{A0}: 09:00 Stretch, en retard.",
            "Tâche 1 à 09:00, Stretch\u{A0}: suivante, en retard.", "Tâche 2 à 14:30, Write\u{A0}: à faire.",
            "Tâche 3 à 18:00, Cook\u{A0}: à faire.",
        ])

    static func world(_ label: String) async throws -> World {
        let world = try await World(label)
        _ = try await world.daemon(now: "2026-03-02T13:10:00+01:00")
        let client = try world.client()
        for (title, time) in [("Stretch", "09:00"), ("Write", "14:30"), ("Cook", "18:00")] {
            _ = try client.addTask(title, time)
        }
        return world
    }

    /// The daemon's own sentence (English, 24-hour), which no screen of petctl may show.
    static func daemonSentence(_ world: World) async throws -> String {
        let reply = try await world.gdbusCall("GetWidgetEntry").output
        let match = try #require(reply.firstMatch(of: /'accessible_text': <'([^']*)'>/), "\(reply)")
        return String(match.1)
    }

    @Test(
        "watch's waybar tooltip, the tray's ToolTip and today --plain: composed in the language, on the clock",
        arguments: [american, german, french])
    func sentences(words: Words) async throws {
        let world = try await Self.world("sentence-\(words.locale.prefix(2))")
        defer { world.close() }
        let environment = world.petctlEnvironment.merging(Self.language(words.locale)) { $1 }
        let daemon = try await Self.daemonSentence(world)
        #expect(daemon.contains("Next: 09:00 Stretch, overdue."), "\(daemon)")

        // petctl watch --format waybar: the first record's tooltip.
        let watch = try world.sandbox.spawn(
            try productBinary("petctl", override: "PETCTL"), ["watch", "--format", "waybar"],
            environment: environment, label: "watch")
        let record = watch.waitForLine { $0.hasPrefix("{") }
        _ = watch.killNow()
        let object = try JSONSerialization.jsonObject(with: Data((record ?? "").utf8)) as? [String: Any]
        let tooltip = object?["tooltip"] as? String ?? "(\(record ?? "no record") \(watch.errors))"
        #expect(tooltip.split(separator: "\n").map(String.init) == words.tooltip, "\(tooltip)")

        // petctl tray: the ToolTip hosts show (its title line and its body).
        let tray = try world.sandbox.spawn(
            try productBinary("petctl", override: "PETCTL"), ["tray"], environment: environment, label: "tray")
        defer {
            tray.send(SIGTERM)
            _ = tray.waitExitBlocking()
        }
        let item = "org.kde.StatusNotifierItem-\(tray.pid)-1"
        func toolTip() -> [Any] {
            let result = try? TrayTests.busctl(
                world,
                ["--json=short", "get-property", item, "/StatusNotifierItem", "org.kde.StatusNotifierItem", "ToolTip"])
            let object = (try? JSONSerialization.jsonObject(with: Data((result?.output ?? "").utf8))) as? [String: Any]
            return object?["data"] as? [Any] ?? []
        }
        #expect(await poll(timeout: .seconds(20)) { (toolTip().last as? String)?.contains("Stretch") == true })
        let tip = toolTip()
        #expect(tip.count == 4, "\(tip) \(tray.errors)")
        #expect(tip.dropFirst(2).first as? String == words.trayPet, "\(tip)")
        #expect(tip.last as? String == words.trayText, "\(tip)")

        // petctl today --plain: one sentence a line, for screen readers.
        let plain = try await world.petctlOK(["today", "--plain"], environment: Self.language(words.locale))
        #expect(plain.split(separator: "\n").map(String.init) == words.plain, "\n\(plain)")

        for (name, text) in [("watch", tooltip), ("tray", "\(tip)"), ("today --plain", plain)] {
            #expect(
                !text.contains(daemon) && !text.contains("Next: 09:00"), "\(name) shows the daemon's sentence: \(text)")
        }
    }

    @Test("the entry's sentence on a rest day and with nothing pending, in German and French")
    func restAndDone() async throws {
        let world = try await Self.world("sentence-rest")
        defer { world.close() }
        _ = try await world.petctlOK(["rest"])
        for n in ["1", "2", "3"] { _ = try await world.petctlOK(["done", n]) }
        let expected = [
            "de_DE.UTF-8": ["Ruhetag.", "3 von 3 Aufgaben erledigt.", "Nichts mehr offen."],
            "fr_FR.UTF-8": ["Jour de repos.", "3 sur 3 tâches faites.", "Plus rien à faire."],
            "en_US.UTF-8": ["Rest day.", "3 of 3 tasks done.", "Nothing pending."],
        ]
        let tooltips = [
            "de_DE.UTF-8": ["Ruhetag: Nichts wird angerechnet.", "Alles erledigt."],
            "fr_FR.UTF-8": ["Jour de repos\u{A0}: rien n'est décompté.", "Tout est fait."],
            "en_US.UTF-8": ["Rest day: nothing is charged.", "All done."],
        ]
        for (locale, lines) in expected {
            let plain = try await world.petctlOK(["today", "--plain"], environment: Self.language(locale))
            let shown = plain.split(separator: "\n").map(String.init)
            #expect(lines.allSatisfy(shown.contains), "\(locale): \(lines) in\n\(plain)")
            let waybar = try await world.petctlOK(["widget", "--format", "waybar"], environment: Self.language(locale))
            let object = try JSONSerialization.jsonObject(with: Data(waybar.utf8)) as? [String: Any]
            let tooltip = (object?["tooltip"] as? String ?? "").split(separator: "\n").dropFirst().map(String.init)
            #expect(tooltip == tooltips[locale], "\(locale): \(waybar)")
        }
    }

    /// A simulation's rates as typed, and printed back.
    static let run = ["simulate", "--days", "3", "--tasks", "1", "--on-time-rate", "0.5"]

    @Test("simulate and status: decimals with the locale's separator; CSV keeps the point; 0,8 is read in any locale")
    func decimals() async throws {
        let world = try await World("sentence-decimals")
        defer { world.close() }
        let first: [String: String] = [
            "de_DE.UTF-8":
                "Simuliert: 3 Tage, 1 Aufgabe am Tag, Erledigungsquote 0,8, Pünktlichkeitsquote 0,5, Startwert 1.",
            "fr_FR.UTF-8":
                "Simulation\u{A0}: 3 jours, 1 tâche par jour, taux de réalisation 0,8, taux de ponctualité 0,5, graine 1.",
            "en_US.UTF-8": "Simulated 3 days, 1 task a day, done rate 0.8, on-time rate 0.5, seed 1.",
            "C.UTF-8": "Simulated 3 days, 1 task a day, done rate 0.8, on-time rate 0.5, seed 1.",
        ]
        let csv = try await world.petctlOK(Self.run + ["--done-rate", "0.8", "--csv"])
        for (locale, line) in first {
            for typed in ["0.8", "0,8"] {
                let table = try await world.petctlOK(
                    Self.run + ["--done-rate", typed], columns: 200, environment: Self.language(locale))
                #expect(table.split(separator: "\n").first.map(String.init) == line, "\(locale) \(typed):\n\(table)")
                #expect(
                    try await world.petctlOK(
                        Self.run + ["--done-rate", typed, "--csv"], environment: Self.language(locale)) == csv,
                    "the CSV is the same in every locale")
            }
        }
        #expect(csv.hasPrefix("stage,name,threshold,first_day\n0,Tadpole,10,0\n"), "\(csv)")
        // German says EP, never XP (po/README.md's glossary), in the summary as on every screen.
        let german = try await world.petctlOK(
            Self.run + ["--done-rate", "0.8"], environment: Self.language("de_DE.UTF-8"))
        let summary = german.split(separator: "\n").first { $0.hasPrefix("Nach Tag 3: ") }
        #expect(summary?.hasSuffix(" EP.") == true && !german.contains("XP"), "\(german)")
        let perDay = try await world.petctlOK(
            Self.run + ["--done-rate", "0,8", "--per-day"], environment: Self.language("fr_FR.UTF-8"))
        #expect(perDay.hasPrefix("day,rest,on_time,late,missed,xp_change,stage,stage_xp\n1,false,"), "\(perDay)")

        // A refused rate: the sentence in the language, the number as typed in it.
        let refused: [String: String] = [
            "de_DE.UTF-8": "petctl: --done-rate muss eine Zahl zwischen 0 und 1 sein, nicht 1,5.",
            "fr_FR.UTF-8": "petctl: --done-rate doit être un nombre entre 0 et 1, pas 1,5.",
            "en_US.UTF-8": "petctl: --done-rate must be a number between 0 and 1, not 1.5.",
        ]
        for (locale, line) in refused {
            let result = try await world.petctl(Self.run + ["--done-rate", "1,5"], environment: Self.language(locale))
            #expect(result.status == 64 && result.errors.hasPrefix(line + " "), "\(result)")
        }
        for bad in ["0,8,1", "0,8.1", "huit"] {
            let result = try await world.petctl(
                Self.run + ["--done-rate", bad], environment: Self.language("de_DE.UTF-8"))
            #expect(result.status == 64 && result.output.isEmpty, "\(bad): \(result)")
        }

        // petctl status: a daemon at half speed says so in the locale's decimals.
        _ = try await world.daemon(now: "2026-03-02T13:10:00+01:00", timeScale: 0.5)
        let scale: [String: String] = [
            "de_DE.UTF-8": ", 0,5-fache Echtzeit", "fr_FR.UTF-8": ", 0,5 fois le temps réel",
            "en_US.UTF-8": ", 0.5 times real time",
        ]
        for (locale, words) in scale {
            let status = try await world.petctlOK(["status"], environment: Self.language(locale))
            #expect(status.contains(words), "\(locale):\n\(status)")
        }
    }
}
