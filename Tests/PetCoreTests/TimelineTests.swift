import PetCore
import Testing

@Suite struct TimelineTests {
    /// One line per entry: local tick, day, done/total, next task, its time, overdue, pet.
    func line(_ e: WidgetEntry, _ z: Zone) -> String {
        guard case .int64(let date) = e["date"], case .int64(let next) = e["next_date"] else { return "?" }
        let l = z.localTime(at: date)
        let hh = l.hour < 10 ? "0\(l.hour)" : "\(l.hour)"
        return [
            "\(l.date) \(hh) +\(next - date)", render(e["day_key"]),
            "\(render(e["tasks_done"]))/\(render(e["tasks_total"]))",
            render(e["next_task_title"]), render(e["next_task_time"]), render(e["next_task_overdue"]),
            render(e["stage_index"]), render(e["stage_xp"]),
        ].joined(separator: " ")
    }

    @Test func timelineSnapshotForTheFixedScenario() throws {
        let (w, ctx, _) = try fixedScenario()
        let entries = w.timeline(ctx)
        #expect(entries.count == 24)
        let lines = entries.map { line($0, ctx.zone) }
        let open = #"s:"2026-03-02" i:1/i:5"#
        let next = #"s:"2026-03-03" i:0/i:2"#
        let pet = "i:2 i:12"  // the live pet now, at every tick
        var expected: [String] = []
        expected.append(#"2026-03-02 14 +3600 \#(open) s:"Lunch walk" s:"13:25" b:true \#(pet)"#)
        for h in 15...23 {
            expected.append(#"2026-03-02 \#(h) +3600 \#(open) s:"Lunch walk" s:"13:25" b:true \#(pet)"#)
        }
        for h in 0...9 {
            expected.append(#"2026-03-03 0\#(h) +3600 \#(next) s:"Dentist" s:"09:30" b:false \#(pet)"#)
        }
        // 09:30 with an hour's grace: still on time at 10:00, overdue from 10:30:01.
        expected.append(#"2026-03-03 10 +3600 \#(next) s:"Dentist" s:"09:30" b:false \#(pet)"#)
        for h in 11...13 { expected.append(#"2026-03-03 \#(h) +3600 \#(next) s:"Dentist" s:"09:30" b:true \#(pet)"#) }
        #expect(lines == expected)
        // The next day's entry lists the task added for it and the recurring instance, none done.
        guard case .array(_, let upcoming) = entries[10]["upcoming"] else { return }
        #expect(upcoming.map { render($0["title"]) } == [#"s:"Dentist""#, #"s:"Stretch""#])
        #expect(upcoming.allSatisfy { render($0["done"]) == "b:false" })
        #expect(render(upcoming[1]["template_id"]) == #"s:"t-5""#)
        // The pet part is the live pet even though the visible snapshot is older.
        #expect(render(w.widgetEntry(ctx)["stage_xp"]) == "i:12")
    }

    /// The reset moved to 12:00 makes the next day 12 hours long, so 24 ticks reach the day
    /// after it, which gets only its recurring instances; its key follows the rule for keys.
    @Test func ticksBeyondTheNextDayGetOnlyRecurringInstances() throws {
        var (w, ctx) = monday("22:10")
        try w.addTask(title: "Read", time: "21:00", repeat: "daily", ctx)
        try w.addTask(title: "Plan", time: "08:00", day: "tomorrow", ctx)
        try w.setResetTime("12:00")
        let entries = w.timeline(ctx)
        let days = entries.map { render($0["day_key"]) }
        #expect(days.first == #"s:"2026-03-02""#)
        #expect(days.filter { $0 == #"s:"2026-03-03""# }.count == 12)
        #expect(days.filter { $0 == #"s:"2026-03-04""# }.count == 11)
        let last = entries[23]
        #expect(render(last["tasks_total"]) == "i:1" && render(last["next_task_title"]) == #"s:"Read""#)
        #expect(render(entries[1]["tasks_total"]) == "i:2", "tomorrow: Plan and Read")
    }

    /// Ticks are instants: across Berlin's fall-back night the timeline has 02:00 twice.
    @Test func timelineAcrossAFold() throws {
        let berlin = zone("Europe/Berlin")
        let ctx = Context(now: at("2026-10-24T22:30:00Z"), zone: berlin)  // 00:30 CEST
        let w = PetWorld(now: ctx.now, zone: berlin)
        let hours = w.timeline(ctx).prefix(4).map { line($0, berlin).prefix(19) }
        #expect(hours == ["2026-10-25 01 +3600", "2026-10-25 02 +3600", "2026-10-25 02 +3600", "2026-10-25 03 +3600"])
    }

    @Test func fiftyTaskDayAndTimelineStayConsistent() throws {
        var (w, ctx) = monday("00:30")
        for n in 0..<50 {
            let h = n / 3 + 1
            let m = (n % 3) * 20
            try w.addTask(title: "task \(n)", time: "\(h < 10 ? "0" : "")\(h):\(m == 0 ? "00" : "\(m)")", ctx)
        }
        ctx.now = at("2026-03-02T12:10:00Z")
        _ = w.catchUp(ctx)
        let entries = w.timeline(ctx)
        #expect(entries.count == 24)
        let dates = entries.compactMap { e -> Instant? in if case .int64(let d) = e["date"] { d } else { nil } }
        #expect(dates == Ticks.next(24, after: ctx.now, zone: ctx.zone))
        #expect(render(entries[0]["tasks_total"]) == "i:50")
    }
}
