import Foundation
import TestSupport
import Testing

/// What petctl draws, in German and French: the Today screen and the interactive screen in tmux
/// at 80 and 40 columns, the tray's menu and tooltip read back over the bus, and the panel line.
/// The expected lines are written by hand from po/de.po and po/fr.po: a missing or stale catalogue
/// shows English and fails. (The dates on these screens are LocalClock's, and are not checked here.)
@Suite("Screens in German and French")
struct LocalizedScreenTests {
    /// LANG and LC_ALL for `locale` (the sandbox sets LC_ALL=C.UTF-8, which would win over LANG).
    static func language(_ locale: String) -> [String: String] { ["LANG": locale, "LC_ALL": locale] }

    /// The lines one language expects.
    struct Words: CustomTestStringConvertible {
        let locale: String
        let pet: String
        let count: String
        let xp: String
        let standupNotes: String
        let wideFooter: String
        let narrowFooter: String
        let done: String
        let snoozed: String
        let undone: String
        let deleteAsk: String
        let kept: String
        let helpLine: String
        let addPrompt: String
        let nothingChanged: String
        let tomorrowCount: String
        let tomorrowStatus: String

        var testDescription: String { locale }
    }

    static let german = Words(
        locale: "de_DE.UTF-8", pet: "🫧 Kaulquappe · Stufe 1 von 20", count: " · 0 von 2 erledigt", xp: "EP",
        standupNotes: "nächste · überfällig",
        wideFooter: "⏎ erledigt  s aufschieben  u rückgängig  ? Tasten  q beenden",
        narrowFooter: "⏎ ✓  s später  u zurück  ? Hilfe  q Ende", done: "Erledigt: 1 Standup, +2 EP (pünktlich).",
        snoozed: "Aufgeschoben: 2 Review auf 11:15.", undone: "Rückgängig: 1 Standup ist wieder offen.",
        deleteAsk: "y löscht sie", kept: "2 bleibt.", helpLine: "x, Entf       löschen (y bestätigt)",
        addPrompt: "Hinzufügen · Zeit: ▏ z.\u{A0}B. 14:30", nothingChanged: "Nichts geändert.",
        tomorrowCount: " · nichts geplant", tomorrowStatus: "Morgen: t zeigt wieder heute.")

    static let french = Words(
        locale: "fr_FR.UTF-8", pet: "🫧 Têtard · stade 1 sur 20", count: " · 0 sur 2 faite", xp: "XP",
        standupNotes: "suivante · en retard",
        wideFooter: "⏎ faite  s reporter  u annuler  ? touches  q quitter",
        narrowFooter: "⏎ ✓  s report  u annuler  ? aide  q fin", done: "Faite\u{A0}: 1 Standup, +2 XP (à l'heure).",
        snoozed: "Reportée\u{A0}: 2 Review à 11:15.",
        undone: "Annulée\u{A0}: 1 Standup est de nouveau à faire.",
        deleteAsk: "y la supprime", kept: "2 est conservée.", helpLine: "x, Suppr      supprimer (y confirme)",
        addPrompt: "Ajouter · heure\u{A0}: ▏ p. ex. 14:30", nothingChanged: "Rien n'a changé.",
        tomorrowCount: " · rien de prévu", tomorrowStatus: "Demain\u{A0}: t revient à aujourd'hui.")

    @Test(
        "petctl today: the pet, the count and the status words, at 80 and 40 columns",
        arguments: [german, french], [80, 40])
    func today(words: Words, columns: Int) async throws {
        let world = try await World("l10n-today")
        defer { world.close() }
        _ = try await world.daemon(now: "2026-03-02T10:05:00+01:00")
        let client = try world.client()
        _ = try client.addTask("Standup", "09:00")
        _ = try client.addTask("Review", "11:00")
        let pane = try await TodayInteractiveTests.Pane(world, columns: columns, name: "today")
        defer { pane.close() }
        try await pane.type(
            "LANG=\(words.locale) LC_ALL=\(words.locale) \"$PETCTL\" today; echo '-- end --'")
        await pane.waitFor(line: "-- end --")
        let lines = pane.lines()
        #expect(lines.contains(words.pet), "\(lines)")
        #expect(lines.contains(String(repeating: "░", count: 30) + "  0/10 " + words.xp), "\(lines)")
        #expect(lines.contains { $0.hasSuffix(words.count) }, "\(lines)")
        #expect(
            lines.contains(TodayTerminalTests.row("1  09:00 → ", "Standup", words.standupNotes, columns: columns)),
            "\(lines)")
        #expect(lines.contains("2  11:00   Review"), "\(lines)")
        #expect(lines.allSatisfy { screenColumns(of: $0) <= columns }, "\(lines)")
    }

    @Test(
        "petctl today --interactive: footer, confirmations, the delete question, help and prompt, at 80 and 40 columns",
        arguments: [german, french], [80, 40])
    func interactive(words: Words, columns: Int) async throws {
        let world = try await World("l10n-interactive")
        defer { world.close() }
        _ = try await world.daemon(now: "2026-03-02T09:10:00+01:00")
        let client = try world.client()
        _ = try client.addTask("Standup", "09:00")
        _ = try client.addTask("Review", "11:00")
        let pane = try await TodayInteractiveTests.Pane(world, columns: columns, name: "keys")
        defer { pane.close() }
        try await pane.type(
            "LANG=\(words.locale) LC_ALL=\(words.locale) \"$PETCTL\" today --interactive; echo \"exit $?\"")
        await pane.waitFor(line: columns == 80 ? words.wideFooter : words.narrowFooter)
        await pane.waitFor(line: words.pet)
        #expect(pane.lines().allSatisfy { screenColumns(of: $0) <= columns }, "\(pane.lines())")
        try await pane.keys("Enter")
        await pane.waitFor(line: words.done)
        try await pane.keys("j", "s")
        await pane.waitFor(sentence: words.snoozed, columns: columns)
        try await pane.keys("u")
        await pane.waitFor(sentence: words.undone, columns: columns)
        try await pane.keys("x")
        await pane.waitFor(containing: words.deleteAsk)
        try await pane.keys("n")
        await pane.waitFor(line: words.kept)
        #expect(try client.tasks().count == 2)
        try await pane.keys("?")
        await pane.waitFor(line: words.helpLine)
        #expect(!pane.lines().joined().contains("…"), "a help line cut short: \(pane.lines())")
        try await pane.keys("k")
        try await pane.keys("a")
        await pane.waitFor(containing: words.addPrompt)
        try await pane.keys("Escape")
        await pane.waitFor(line: words.nothingChanged)
        try await pane.keys("t")
        await pane.waitFor(containing: words.tomorrowStatus)
        // The heading may wrap at 40 columns (German's date is long): read its lines as one.
        let heading = await poll(timeout: .seconds(20), every: .milliseconds(100)) {
            pane.lines().prefix(3).joined(separator: " ").contains(words.tomorrowCount)
        }
        #expect(heading, "\(words.tomorrowCount) not in the heading: \(pane.lines().prefix(3))")
        try await pane.keys("t")
        await pane.waitFor(line: words.pet)
        #expect(pane.lines().allSatisfy { screenColumns(of: $0) <= columns }, "\(pane.lines())")
        try await pane.keys("q")
        await pane.waitFor(line: "exit 0")
    }

    @Test("the tray in German: the pet line, the task items, Done/Snooze/Undo/Open Today and the tooltip")
    func trayInGerman() async throws {
        let setup = try await TrayTests.Setup(
            "l10n-tray", now: "2026-03-02T10:30:00+01:00", tasks: [("Email", "15:00"), ("Stretch", "16:00")],
            environment: Self.language("de_DE.UTF-8"))
        defer { setup.close() }
        #expect(await poll { (try? setup.menuItems().count) ?? 0 >= 5 })
        let items = try setup.menuItems()
        #expect(items.first?.label == "Kaulquappe · Stufe 1 von 20 · 0/10 EP", "\(items)")
        let tasks = items.filter { !$0.children.isEmpty }
        #expect(tasks.map(\.label) == ["15:00 Email", "16:00 Stretch"], "\(items)")
        #expect(tasks.first?.children.map(\.1) == ["_Erledigt", "_Aufschieben"], "\(items)")
        #expect(items.last?.label == "_Heute öffnen", "\(items)")
        let tip = try setup.property("ToolTip").data as? [Any]
        #expect(tip?[2] as? String == "Kaulquappe · Stufe 1 von 20 · 0/10 EP", "\(String(describing: tip))")
        #expect(tip?[3] as? String == "0 von 2 erledigt\nAls Nächstes: 15:00 Email", "\(String(describing: tip))")

        let email = try #require(setup.world.client().tasks().first { $0.string("title") == "Email" }?.string("id"))
        _ = try setup.world.client().markDone(email)
        #expect(await poll { (try? setup.menuItems().map(\.label).contains("„Email“ _rückgängig machen")) == true })
        #expect(
            await poll {
                ((try? setup.property("ToolTip").data) as? [Any])?[3] as? String
                    == "1 von 2 erledigt\nAls Nächstes: 16:00 Stretch"
            })
    }

    @Test("the panel line: no tasks and not running, in German and French")
    func panelLine() async throws {
        let world = try await World("l10n-panel")
        defer { world.close() }
        let cases = [
            ("de_DE.UTF-8", "💤 läuft nicht", "petprogressd läuft nicht", "🫧 keine Aufgaben"),
            ("fr_FR.UTF-8", "💤 arrêté", "petprogressd est arrêté", "🫧 aucune tâche"),
        ]
        for (locale, stopped, tooltip, empty) in cases {
            let language = Self.language(locale)
            for format in ["text", "polybar"] {
                let result = try await world.petctl(["widget", "--format", format], environment: language)
                #expect(result.status == 3 && result.output == stopped + "\n", "\(locale) \(format): \(result)")
            }
            let i3 = try await world.petctl(["widget", "--format", "i3blocks"], environment: language)
            #expect(i3.output == ##"{"full_text":"\##(stopped)","short_text":"💤","color":"#888888"}"## + "\n", "\(i3)")
            let waybar = try await world.petctl(["widget", "--format", "waybar"], environment: language)
            #expect(
                waybar.output
                    == #"{"text":"💤","tooltip":"\#(tooltip)","class":["stopped"],"percentage":0,"alt":"stopped"}"#
                    + "\n", "\(waybar)")
        }
        _ = try await world.daemon(now: "2026-03-02T13:10:00+01:00")
        for (locale, _, _, empty) in cases {
            let result = try await world.petctl(["widget", "--format", "text"], environment: Self.language(locale))
            #expect(result.status == 0 && result.output == empty + "\n", "\(locale): \(result)")
            let waybar = try await world.petctl(["widget", "--format", "waybar"], environment: Self.language(locale))
            #expect(waybar.output.contains(#""class":["tadpole","no-tasks"]"#), "\(waybar)")
        }
    }
}

/// Terminal columns of a captured line: emoji such as the pet's glyph take two.
func screenColumns(of line: String) -> Int {
    line.unicodeScalars.reduce(0) { $0 + ($1.properties.isEmojiPresentation ? 2 : 1) }
}
