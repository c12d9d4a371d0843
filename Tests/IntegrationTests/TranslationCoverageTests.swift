import Foundation
import TestSupport
import Testing

/// Text that escaped translation: petctl in the pseudo-language `qps` (`scripts/po.py pseudo`,
/// compiled beside the build by `make test`), where every translated string comes out inside ⟦…⟧.
/// The tasks' titles are emoji, so a letter left outside the marks is a word petctl printed without
/// the catalogue, apart from what the C library's locale gives (weekday and month names) and
/// argument-parser's own words in help screens.
@Suite("translation coverage")
struct TranslationCoverageTests {
    /// Words that are not petctl's to translate: the C locale's day and month names (LC_TIME, not
    /// the catalogue), and names that stay as they are in every language.
    static let notOurs: Set<String> = Set(
        [
            "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday", "Mon", "Tue", "Wed", "Thu",
            "Fri", "Sat", "Sun", "January", "February", "March", "April", "May", "June", "July", "August",
            "September", "October", "November", "December", "Jan", "Feb", "Mar", "Apr", "Jun", "Jul", "Aug", "Sep",
            "Oct", "Nov", "Dec", "AM", "PM",
            // Program names, and the rest day's cell in the history heatmap.
            "petctl", "petprogressd", "z",
        ])

    /// What `petctl settings` lists as typed: the settings' names and `on`/`off`.
    static let settingNames: Set<String> = ["reset", "time", "grace", "snooze", "rollover", "on", "off"]

    /// The letters outside ⟦…⟧ in `text`, word by word, less `notOurs` and `also`; paths, task
    /// handles (`r4`, the older `t-4`), polybar's `%{…}` and the JSON keys of i3blocks' line are not words.
    /// The pseudo-language leaves a translation's placeholders outside its marks (scripts/po.py
    /// pseudo), so an English sentence filled into a translated one is caught; what fills them and
    /// is no word of petctl's is not counted either: a command line (`petctl help add`, an option's
    /// name), an ISO 8601 instant, and the bus's own sentence when no daemon can be started.
    static func escaped(_ text: String, also: Set<String> = []) -> [String] {
        let text = text.replacing(/\/[^\s⟧]*/, with: " ").replacing(/%\{[^}]*\}/, with: " ")
            .replacing(/"[a-z_]+":/, with: " ").replacing(/\b(t-|r)\d+\b/, with: " ")
            .replacing(/\bpetctl( help)? [a-z]+\b/, with: " ").replacing(/--[a-z][a-z-]*/, with: " ")
            .replacing(/\d{4}-\d\d-\d\dT\d\d:\d\d(:\d\d)?([+-]\d\d:\d\d|Z)?/, with: " ")
            .replacing(/The name [^ ]+ was not provided by any \.service files/, with: " ")
        var outside = ""
        var depth = 0
        for c in text {
            if c == "⟦" {
                depth += 1
            } else if c == "⟧" {
                depth = max(0, depth - 1)
                outside.append(" ")
            } else if depth == 0 {
                outside.append(c)
            }
        }
        let words = outside.split(whereSeparator: { !($0.isLetter && $0.isASCII) }).map(String.init)
        return words.filter { !notOurs.contains($0) && !also.contains($0) }
    }

    static func world() async throws -> World {
        let world = try await World("qps")
        _ = try await world.daemon(now: "2026-03-02T13:10:00+01:00")
        let c = try world.client()
        let first = try c.addTask("☕", "09:00")
        _ = try c.addTask("🧘", "12:30")
        _ = try c.addTask("📚", "13:00")
        _ = try c.addTaskFor("🚶", "18:00", day: "today", repeat: "daily")
        _ = try c.addTaskFor("🎻", "10:00", day: "tomorrow", repeat: "")
        _ = try c.markDone(first)
        return world
    }

    @Test(
        "every screen and message of petctl is in the catalogue",
        arguments: [
            ["today"], ["today", "--plain"], ["tomorrow"], ["status"], ["timeline"], ["templates"], ["history"],
            ["log"], ["settings"], ["snooze"], ["done", "2"], ["undo"], ["add", "25:00", "🦉"], ["add", "7", "🦉"],
            ["done", "9"],
            ["edit", "3", "--time", "14:00"], ["rm", "3"], ["rest", "--clear"], ["bogus"],
            // petctl's own checks of a title and a repeat, a time already past, the settings'
            // bounds and a new reset time.
            ["add", "12:00", " "], ["add", "12:00", String(repeating: "🦉", count: 201)], ["add", "12:00", "🦉\t🦉"],
            ["add", "12:00", "🦉", "--repeat", "🦉"], ["add", "12:00", "🦉", "--repeat", "mon,mon"],
            ["add", "6:00", "🦉"], ["settings", "grace", "721"], ["settings", "reset-time", "4am"],
            ["edit", "+1", "--time", "+20m"],
            [
                "simulate", "--days", "3", "--tasks", "1", "--done-rate", "1", "--on-time-rate", "1",
                "--rest-days-per-week", "1",
            ],
            // simulate's own checks, a decimal among them.
            ["simulate", "--days", "0", "--tasks", "1", "--done-rate", "1", "--on-time-rate", "1"],
            ["simulate", "--days", "3", "--tasks", "201", "--done-rate", "1", "--on-time-rate", "1"],
            ["simulate", "--days", "3", "--tasks", "1", "--done-rate", "1,5", "--on-time-rate", "1"],
            ["simulate", "--days", "3", "--tasks", "1", "--done-rate", "1", "--on-time-rate", "1.5"],
            [
                "simulate", "--days", "3", "--tasks", "1", "--done-rate", "1", "--on-time-rate", "1",
                "--rest-days-per-week", "8",
            ],
            // The entry's sentence a person reads: the panels' text and tooltip.
            ["widget", "--format", "text"], ["widget", "--format", "polybar"], ["widget", "--format", "inline"],
        ])
    func screen(_ arguments: [String]) async throws {
        let world = try await Self.world()
        defer { world.close() }
        let environment = ["LANGUAGE": "qps"]
        // What the user typed comes back as typed (a repeat refused, an unknown command, `+20m`):
        // the words of the values, not of the command's or the options' names.
        let values = arguments.dropFirst().filter { !$0.hasPrefix("-") } + (arguments == ["bogus"] ? ["bogus"] : [])
        let typed = Set(values.flatMap { $0.split(whereSeparator: { !($0.isLetter && $0.isASCII) }).map(String.init) })
        let also = (arguments.first == "settings" ? Self.settingNames : []).union(typed)
        for columns in [80, 40] {
            let result = try await world.petctl(arguments, columns: columns, environment: environment)
            let text = result.output + result.errors
            let left = Self.escaped(text, also: also)
            #expect(
                left.isEmpty,
                "petctl \(arguments.joined(separator: " ")) at \(columns) columns, outside the catalogue: \(left)\n\(text)"
            )
        }
    }

    /// The words of a panel record a person reads: waybar's text and tooltip, i3blocks' full and
    /// short text (its class, alt and colour are for style sheets, not people).
    static func panelWords(_ record: String) -> String {
        let object = (try? JSONSerialization.jsonObject(with: Data(record.utf8))) as? [String: Any] ?? [:]
        return ["text", "tooltip", "full_text", "short_text"].compactMap { object[$0] as? String }.joined(
            separator: "\n")
    }

    @Test(
        "the entry's sentence where a person reads it — waybar's tooltip, i3blocks, the tray's ToolTip — is all catalogue",
        arguments: ["waybar", "i3blocks"])
    func panelSentences(format: String) async throws {
        let world = try await Self.world()
        defer { world.close() }
        let environment = world.petctlEnvironment.merging(["LANGUAGE": "qps"]) { $1 }
        // Once from watch (its first record), once from widget: the same record.
        let watch = try world.sandbox.spawn(
            try productBinary("petctl", override: "PETCTL"), ["watch", "--format", format], environment: environment,
            label: "watch")
        let record = watch.waitForLine { $0.hasPrefix("{") } ?? ""
        _ = watch.killNow()
        let widget = try await world.petctl(["widget", "--format", format], environment: ["LANGUAGE": "qps"]).output
        for (name, line) in [("watch", record), ("widget", widget)] {
            let words = Self.panelWords(line)
            // waybar's tooltip has words; i3blocks' line is the glyph, counts, a time and a title.
            #expect(
                !words.isEmpty && (format != "waybar" || words.contains("⟦")),
                "\(name) --format \(format): \(line) \(watch.errors)")
            #expect(
                Self.escaped(words).isEmpty,
                "\(name) --format \(format), outside the catalogue: \(Self.escaped(words))\n\(words)")
        }
        guard format == "waybar" else { return }
        let tray = try world.sandbox.spawn(
            try productBinary("petctl", override: "PETCTL"), ["tray"], environment: environment, label: "tray")
        defer {
            tray.send(SIGTERM)
            _ = tray.waitExitBlocking()
        }
        var tip = ""
        _ = await poll(timeout: .seconds(20)) {
            let result = try? TrayTests.busctl(
                world,
                [
                    "--json=short", "get-property", "org.kde.StatusNotifierItem-\(tray.pid)-1", "/StatusNotifierItem",
                    "org.kde.StatusNotifierItem", "ToolTip",
                ])
            let object = (try? JSONSerialization.jsonObject(with: Data((result?.output ?? "").utf8))) as? [String: Any]
            tip = ((object?["data"] as? [Any])?.compactMap { $0 as? String }.dropFirst().joined(separator: "\n")) ?? ""
            return tip.contains("🧘")
        }
        #expect(tip.contains("⟦"), "tray ToolTip: \(tip) \(tray.errors)")
        #expect(Self.escaped(tip).isEmpty, "tray ToolTip, outside the catalogue: \(Self.escaped(tip))\n\(tip)")
    }

    @Test("the pseudo-language is there: petctl today is all marks")
    func catalogue() async throws {
        let world = try await Self.world()
        defer { world.close() }
        let result = try await world.petctl(["today"], environment: ["LANGUAGE": "qps"])
        #expect(result.output.hasPrefix("🫧 ⟦"), "\(result)")
    }

    @Test("the daemon stopped: the panel's words and the unreachable sentence")
    func unreachable() async throws {
        let world = try await World("qps-off")
        defer { world.close() }
        for arguments in [["widget", "--format", "polybar"], ["widget", "--format", "i3blocks"], ["today"]] {
            let result = try await world.petctl(arguments, environment: ["LANGUAGE": "qps"])
            let text = result.output + result.errors
            #expect(text.contains("⟦"), "\(text)")
            #expect(Self.escaped(text).isEmpty, "petctl \(arguments): \(Self.escaped(text))\n\(text)")
        }
    }
}
