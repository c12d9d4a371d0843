import Foundation
import TestSupport
import Testing

/// `petctl widget` in every panel format, against the real daemon. The expected lines
/// are written out by hand: truncation first, then each format's escaping; one line each.
@Suite("Panel formats")
struct PanelFormatTests {
    static let formats = ["text", "inline", "waybar", "polybar", "i3blocks"]

    /// `petctl widget --format F` for each format, one line each (the trailing newline checked).
    static func widget(_ world: World, _ extra: [String] = []) async throws -> [String: String] {
        var lines: [String: String] = [:]
        for format in formats {
            let result = try await world.petctl(["widget", "--format", format] + extra)
            #expect(result.status == 0 && result.errors.isEmpty, "\(format): \(result)")
            #expect(result.output.hasSuffix("\n") && result.output.dropLast().split(separator: "\n").count <= 1)
            lines[format] = String(result.output.dropLast())
        }
        return lines
    }

    static func daemon(_ label: String, now: String = "2026-03-02T13:10:00+01:00") async throws -> World {
        let world = try await World(label)
        _ = try await world.daemon(now: now)
        return world
    }

    @Test("an empty day")
    func emptyDay() async throws {
        let world = try await Self.daemon("panel-empty")
        defer { world.close() }
        #expect(
            try await Self.widget(world) == [
                "text": "🫧 no tasks",
                "inline": "🫧 0/0",
                "waybar":
                    #"{"text":"🫧 no tasks","tooltip":"Tadpole · stage 1 of 20 · 0/10 XP\nNo tasks planned.","class":["tadpole","no-tasks"],"percentage":0,"alt":"tadpole"}"#,
                "polybar": "🫧 no tasks",
                "i3blocks": #"{"full_text":"🫧 no tasks","short_text":"🫧 0/0"}"#,
            ])
    }

    /// 12:30 at 13:10, with the hour's grace: due, still on time — amber, not red, and no `!`.
    @Test("a due next task, still on time")
    func due() async throws {
        let world = try await Self.daemon("panel-due")
        defer { world.close() }
        let c = try world.client()
        _ = try c.addTask("Email", "12:30")
        _ = try c.addTask("Review", "15:00")
        #expect(
            try await Self.widget(world) == [
                "text": "🫧 0/2 12:30 Email",
                "inline": "🫧 0/2",
                "waybar":
                    #"{"text":"🫧 0/2 12:30 Email","tooltip":"Tadpole · stage 1 of 20 · 0/10 XP\n12:30 Email (due)\n15:00 Review","class":["tadpole","due"],"percentage":0,"alt":"tadpole"}"#,
                "polybar": "%{F#e5c07b}🫧 0/2 12:30 Email%{F-}",
                "i3blocks": ##"{"full_text":"🫧 0/2 12:30 Email","short_text":"🫧 0/2","color":"#e5c07b"}"##,
            ])
    }

    /// 12:00 at 13:10: past the hour's grace, it can no longer be done on time.
    @Test("an overdue next task")
    func overdue() async throws {
        let world = try await Self.daemon("panel-overdue")
        defer { world.close() }
        let c = try world.client()
        _ = try c.addTask("Email", "12:00")
        _ = try c.addTask("Review", "15:00")
        #expect(
            try await Self.widget(world) == [
                "text": "🫧 0/2 12:00! Email",
                "inline": "🫧 0/2!",
                "waybar":
                    #"{"text":"🫧 0/2 12:00! Email","tooltip":"Tadpole · stage 1 of 20 · 0/10 XP\n12:00 Email (overdue)\n15:00 Review","class":["tadpole","overdue"],"percentage":0,"alt":"tadpole"}"#,
                "polybar": "%{F#e06c75}🫧 0/2 12:00! Email%{F-}",
                "i3blocks": ##"{"full_text":"🫧 0/2 12:00! Email","short_text":"🫧 0/2!","color":"#e06c75"}"##,
            ])
    }

    @Test("all done (the pet part is still the 13:00 snapshot)")
    func allDone() async throws {
        let world = try await Self.daemon("panel-done")
        defer { world.close() }
        let c = try world.client()
        _ = try c.markDone(try c.addTask("Review", "13:00"))
        #expect(
            try await Self.widget(world) == [
                "text": "🫧 1/1 ✓",
                "inline": "🫧 1/1",
                "waybar":
                    #"{"text":"🫧 1/1 ✓","tooltip":"Tadpole · stage 1 of 20 · 0/10 XP\nAll done.","class":["tadpole","all-done"],"percentage":0,"alt":"tadpole"}"#,
                "polybar": "🫧 1/1 ✓",
                "i3blocks": #"{"full_text":"🫧 1/1 ✓","short_text":"🫧 1/1"}"#,
            ])
    }

    @Test("a rest day: a marker in the text formats, the class in waybar's")
    func restDay() async throws {
        let world = try await Self.daemon("panel-rest")
        defer { world.close() }
        let c = try world.client()
        _ = try c.addTask("Email", "12:00")
        try c.call("SetRest", [.string("today"), .string("today"), .bool(true)])
        #expect(
            try await Self.widget(world) == [
                "text": "🫧 0/1 12:00! Email · rest",
                "inline": "🫧 0/1! · rest",
                "waybar":
                    #"{"text":"🫧 0/1 12:00! Email · rest","tooltip":"Tadpole · stage 1 of 20 · 0/10 XP\nRest day: nothing is charged.\n12:00 Email (overdue)","class":["tadpole","overdue","rest"],"percentage":0,"alt":"tadpole"}"#,
                "polybar": "%{F#e06c75}🫧 0/1 12:00! Email · rest%{F-}",
                "i3blocks":
                    ##"{"full_text":"🫧 0/1 12:00! Email · rest","short_text":"🫧 0/1! · rest","color":"#e06c75"}"##,
            ])
        let templated = try await world.petctl(["widget", "--template", "{glyph} {rest}"])
        #expect(templated.output == "🫧 rest\n")
    }

    /// A stage file of 20 one-XP stages: nineteen on-time completions before 11:00 make the
    /// Floating God, which the panel shows from the 11:00 snapshot on.
    @Test("the final stage")
    func finalStage() async throws {
        let world = try await World("panel-final")
        defer { world.close() }
        let bases = [
            "tadpole", "minnow", "frog", "hermit", "starfish", "jellyfish", "squid", "seahorse", "dolphin", "shark",
            "otter", "fox", "lynx", "wolf", "bear", "bison", "elephant", "rhino", "lion", "god",
        ]
        let stages = bases.enumerated().map { i, base in
            #"{"i":\#(i),"name":"\#(i == 19 ? "Floating God" : base.capitalized)","threshold":\#(i == 19 ? 0 : 1),"asset":"pet_\#(base).png"}"#
        }
        let config = world.sandbox.path("home/.config/petprogress")
        try FileManager.default.createDirectory(atPath: config, withIntermediateDirectories: true)
        try #"{"stages":[\#(stages.joined(separator: ","))]}"#.write(
            toFile: config + "/stages.json", atomically: true, encoding: .utf8)
        let data = world.sandbox.path("data")
        let before = try await world.daemon(dataDirectory: data, now: "2026-03-02T10:30:00+01:00")
        let c = try world.client()
        for n in 0..<19 { _ = try c.markDone(try c.addTask("Step \(n)", "11:00")) }
        _ = try c.addTask("Rest", "23:00")
        // Started again after 11:00, the daemon takes the 11:00 snapshot it missed: the new pet.
        #expect(await before.stop() == 0)
        _ = try await world.daemon(dataDirectory: data, now: "2026-03-02T11:00:30+01:00")
        #expect(try world.client().entry().int("stage_index") == 19)
        #expect(
            try await Self.widget(world) == [
                "text": "✨ 19/20 23:00 Rest",
                "inline": "✨ 19/20",
                "waybar":
                    #"{"text":"✨ 19/20 23:00 Rest","tooltip":"Floating God · stage 20 of 20 · 0 XP\n23:00 Rest","class":["god"],"percentage":100,"alt":"god"}"#,
                "polybar": "✨ 19/20 23:00 Rest",
                "i3blocks": #"{"full_text":"✨ 19/20 23:00 Rest","short_text":"✨ 19/20"}"#,
            ])
    }

    @Test("hostile titles never blank, break or hijack a panel")
    func hostileTitles() async throws {
        let world = try await Self.daemon("panel-hostile")
        defer { world.close() }
        let c = try world.client()
        // Each new task is earlier than the last, so it becomes the next task.
        _ = try c.addTask("Tom & Jerry <b>bold</b>", "20:00")
        #expect(
            try await Self.widget(world) == [
                "text": "🫧 0/1 20:00 Tom & Jerry <b>bold</b>",
                "inline": "🫧 0/1",
                "waybar":
                    #"{"text":"🫧 0/1 20:00 Tom &amp; Jerry &lt;b&gt;bold&lt;/b&gt;","tooltip":"Tadpole · stage 1 of 20 · 0/10 XP\n20:00 Tom &amp; Jerry &lt;b&gt;bold&lt;/b&gt;","class":["tadpole"],"percentage":0,"alt":"tadpole"}"#,
                "polybar": "🫧 0/1 20:00 Tom & Jerry <b>bold</b>",
                "i3blocks": #"{"full_text":"🫧 0/1 20:00 Tom & Jerry <b>bold</b>","short_text":"🫧 0/1"}"#,
            ])

        _ = try c.addTask("%{F#f00}red%{A1:reboot:}click%{A}", "19:00")
        let tags = try await Self.widget(world)
        #expect(tags["text"] == "🫧 0/2 19:00 %{F#f00}red%{A1:reboot:…")
        #expect(tags["polybar"] == "🫧 0/2 19:00 %\u{2060}{F#f00}red%\u{2060}{A1:reboot:…")
        #expect(tags["i3blocks"] == ##"{"full_text":"🫧 0/2 19:00 %{F#f00}red%{A1:reboot:…","short_text":"🫧 0/2"}"##)

        _ = try c.addTask("line\u{2028}break\u{2029}here", "18:00")
        let lines = try await Self.widget(world)
        #expect(lines["text"] == "🫧 0/3 18:00 line break here")
        #expect(lines["polybar"] == "🫧 0/3 18:00 line break here")
        #expect(lines["waybar"]?.hasPrefix(#"{"text":"🫧 0/3 18:00 line break here","tooltip":"#) == true)
        let json = try await world.petctl(["widget", "--format", "json"])
        #expect(json.output.contains(#""next_task_title":"line\u2028break\u2029here""#), "\(json)")

        _ = try c.addTask("👩‍💻 Cafe\u{301} שלום", "17:00")
        let mixed = try await Self.widget(world)
        #expect(mixed["text"] == "🫧 0/4 17:00 \u{2068}👩‍💻 Cafe\u{301} שלום\u{2069}")
        #expect(mixed["polybar"] == "🫧 0/4 17:00 \u{2068}👩‍💻 Cafe\u{301} שלום\u{2069}")
        #expect(
            mixed["i3blocks"]
                == "{\"full_text\":\"🫧 0/4 17:00 \u{2068}👩‍💻 Cafe\u{301} שלום\u{2069}\",\"short_text\":\"🫧 0/4\"}")

        _ = try c.addTask(#"Say "hi" to C:\temp"#, "16:30")
        let quoted = try await Self.widget(world)
        // i3blocks 1.4 cuts a JSON string at its first quote, escaped or not: look-alikes instead.
        #expect(quoted["i3blocks"] == #"{"full_text":"🫧 0/5 16:30 Say ʺhiʺ to C:∖temp","short_text":"🫧 0/5"}"#)
        #expect(quoted["waybar"]?.hasPrefix(#"{"text":"🫧 0/5 16:30 Say \"hi\" to C:\\temp","#) == true)
        try c.call(
            "DeleteTask", [.string(try #require(try c.tasks().first { $0.string("time") == "16:30" }?.string("id")))])

        _ = try c.addTask("Über-long title with many words", "16:00")
        let cut = try await world.petctl(["widget", "--format", "waybar", "--title-width", "12"])
        #expect(
            cut.output
                == #"{"text":"🫧 0/5 16:00 Über-long t…","tooltip":"Tadpole · stage 1 of 20 · 0/10 XP\n16:00 Über-long title with many words\n17:00 "#
                + "\u{2068}👩‍💻 Cafe\u{301} שלום\u{2069}"
                + #"\n18:00 line break here","class":["tadpole"],"percentage":0,"alt":"tadpole"}"# + "\n")
    }

    @Test("templates: values escaped, the template's own markup kept, never more than one line")
    func templates() async throws {
        let world = try await Self.daemon("panel-template")
        defer { world.close() }
        _ = try world.client().addTask("Tom & Jerry", "20:00")
        let cases: [([String], String)] = [
            (
                ["--format", "waybar", "--template", "<b>{next_title}</b> {percent}%"],
                #""text":"<b>Tom &amp; Jerry</b> 0%""#
            ),
            (["--format", "polybar", "--template", "%{F#0f0}{glyph}%{F-} {next_time}"], "%{F#0f0}🫧%{F-} 20:00"),
            (["--format", "text", "--template", "{glyph}\n{done}/{total}"], "🫧 0/1"),
            (["--format", "inline", "--template", "{stage} {xp}/{threshold}"], "Tadpole 0/10"),
        ]
        for (arguments, expected) in cases {
            let result = try await world.petctl(["widget"] + arguments)
            #expect(result.status == 0 && result.output.split(separator: "\n").count == 1, "\(arguments): \(result)")
            #expect(result.output.contains(expected), "\(arguments): \(result.output)")
        }
        let bad = try await world.petctl(["widget", "--template", "{nope}"])
        #expect(bad.status == 64 && bad.errors.contains("{nope}") && bad.output.isEmpty)
    }

    @Test("json: the whole entry with the contract's keys")
    func json() async throws {
        let world = try await Self.daemon("panel-json")
        defer { world.close() }
        _ = try world.client().addTask("Email", "15:00")
        let result = try await world.petctl(["widget", "--format", "json"])
        let object = try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [String: Any]
        let entry = try world.client().entry()
        #expect(Set(object?.keys.map { $0 } ?? []) == Set(entry.keys))
        #expect(object?["next_task_title"] as? String == "Email" && object?["tasks_total"] as? Int == 1)
        #expect((object?["upcoming"] as? [[String: Any]])?.first?["time"] as? String == "15:00")
    }

    @Test("no daemon: the format's not-running record, and exit 3")
    func stopped() async throws {
        let world = try await World("panel-stopped")
        defer { world.close() }
        let expected = [
            "text": "💤 not running",
            "inline": "💤 not running",
            "waybar":
                #"{"text":"💤","tooltip":"petprogressd is not running","class":["stopped"],"percentage":0,"alt":"stopped"}"#,
            "polybar": "💤 not running",
            "i3blocks": ##"{"full_text":"💤 not running","short_text":"💤","color":"#888888"}"##,
        ]
        for format in Self.formats {
            let result = try await world.petctl(["widget", "--format", format])
            #expect(result.status == 3 && result.output == (expected[format] ?? "") + "\n", "\(format): \(result)")
        }
    }
}
