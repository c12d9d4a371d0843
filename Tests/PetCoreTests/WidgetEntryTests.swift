import PetCore
import Testing

/// A fixed Monday in UTC, 13:10: one task done on time, one snoozed, a daily template, and a
/// task added for tomorrow. The pet opened the day at Frog 10 XP.
func fixedScenario() throws -> (PetWorld, Context, ids: [String: String]) {
    var (w, ctx) = monday("09:05")
    w.openingPet = PetState(stageIndex: 2, stageXP: 10)
    var ids: [String: String] = [:]
    ids["standup"] = try w.addTask(title: "Standup", time: "09:00", ctx)
    ids["lunch"] = try w.addTask(title: "Lunch walk", time: "12:00", ctx)
    ids["report"] = try w.addTask(title: "Write report", time: "14:30", ctx)
    ids["email"] = try w.addTask(title: "Email", time: "16:00", ctx)
    ids["stretch"] = try w.addTask(title: "Stretch", time: "18:00", repeat: "daily", ctx)
    ids["dentist"] = try w.addTask(title: "Dentist", time: "09:30", day: "tomorrow", ctx)
    _ = w.catchUp(ctx, startingUp: true)
    try w.markDone(id: ids["standup"] ?? "", ctx)
    ctx.now = at("2026-03-02T13:10:00Z")
    _ = w.catchUp(ctx)
    try w.snooze(id: ids["lunch"] ?? "", ctx)  // 13:10 + 15 min
    return (w, ctx, ids)
}

let iconDir = "/usr/share/icons/hicolor/512x512/apps"
func icon(_ stage: Stage) -> String { "\(iconDir)/\(stage.iconName).png" }

@Suite struct WidgetEntryTests {
    /// Every key an entry carries, with its D-Bus type (petprogress(7) §6.2).
    static let entryKeyTypes: [String: String] = [
        "date": "x", "next_date": "x", "day_key": "s", "stage_index": "i", "stage_count": "i",
        "stage_name": "s", "stage_xp": "i", "threshold": "i", "progress": "d", "is_final": "b",
        "icon_name": "s", "icon_path": "s", "glyph": "s", "tasks_done": "i", "tasks_total": "i",
        "next_task_id": "s", "next_task_title": "s", "next_task_time": "s", "next_task_overdue": "b",
        "next_task_due": "b", "upcoming": "aa{sv}", "rest_day": "b", "accessible_text": "s",
    ]

    /// Every key a task record carries, with its D-Bus type (petprogress(7) §6.2).
    static let taskRecordKeyTypes: [String: String] = [
        "id": "s", "title": "s", "time": "s", "effective_time": "s", "day_key": "s", "done": "b",
        "completed_at": "x", "completed_seq": "t", "snoozed_until": "x", "scheduled_at": "x", "overdue": "b",
        "is_next": "b", "due": "b", "due_at": "x", "overdue_at": "x",
        "xp": "i", "repeat": "s", "template_id": "s",
        "number": "i",
    ]

    @Test func entrySnapshotForTheFixedScenario() throws {
        let (w, ctx, _) = try fixedScenario()
        let entry = w.widgetEntry(ctx, iconPath: icon)
        let upcoming = """
            [{completed_at=x:0 completed_seq=t:0 day_key=s:"2026-03-02" done=b:false due=b:false \
            due_at=x:1772457900 effective_time=s:"13:25" \
            id=s:"20260302-2" is_next=b:true number=i:2 overdue=b:false overdue_at=x:1772457901 repeat=s:"" \
            scheduled_at=x:1772452800 \
            snoozed_until=x:1772457900 \
            template_id=s:"" time=s:"12:00" title=s:"Lunch walk" xp=i:0}, \
            {completed_at=x:0 completed_seq=t:0 day_key=s:"2026-03-02" done=b:false due=b:false \
            due_at=x:1772461800 effective_time=s:"14:30" \
            id=s:"20260302-3" is_next=b:false number=i:3 overdue=b:false overdue_at=x:1772465401 repeat=s:"" \
            scheduled_at=x:1772461800 \
            snoozed_until=x:0 \
            template_id=s:"" time=s:"14:30" title=s:"Write report" xp=i:0}, \
            {completed_at=x:0 completed_seq=t:0 day_key=s:"2026-03-02" done=b:false due=b:false \
            due_at=x:1772467200 effective_time=s:"16:00" \
            id=s:"20260302-4" is_next=b:false number=i:4 overdue=b:false overdue_at=x:1772470801 repeat=s:"" \
            scheduled_at=x:1772467200 \
            snoozed_until=x:0 \
            template_id=s:"" time=s:"16:00" title=s:"Email" xp=i:0}]
            """
        let expected = """
            accessible_text=s:"Frog, stage 3 of 20, 12 of 30 XP. 1 of 5 tasks done. Next: 13:25 Lunch walk." \
            date=x:1772456400 day_key=s:"2026-03-02" glyph=s:"🐸" \
            icon_name=s:"petprogress-frog" icon_path=s:"\(iconDir)/petprogress-frog.png" is_final=b:false \
            next_date=x:1772460000 next_task_due=b:false next_task_id=s:"20260302-2" \
            next_task_overdue=b:false \
            next_task_time=s:"13:25" next_task_title=s:"Lunch walk" progress=d:0.4 rest_day=b:false stage_count=i:20 \
            stage_index=i:2 stage_name=s:"Frog" stage_xp=i:12 tasks_done=i:1 tasks_total=i:5 threshold=i:30 \
            upcoming=\(upcoming)
            """
        #expect(render(entry) == expected)
        #expect(at("2026-03-02T13:00:00Z") == 1_772_456_400)
        #expect(at("2026-03-02T13:25:00Z") == 1_772_457_900)
    }

    @Test func everyKeyHasItsContractType() throws {
        let (w, ctx, _) = try fixedScenario()
        let entry = w.widgetEntry(ctx)
        #expect(entry.dbus.vardictValue?.mapValues(\.signature) == Self.entryKeyTypes)
        guard case .array(_, let upcoming) = entry["upcoming"] else {
            Issue.record("upcoming is not aa{sv}")
            return
        }
        for record in upcoming + (w.openDayRecords(ctx) + w.tomorrowRecords(ctx)).map(\.dbus) {
            #expect(record.vardictValue?.mapValues(\.signature) == Self.taskRecordKeyTypes)
        }
        let petKeys: Set = [
            "stage_index", "stage_count", "stage_name", "stage_xp", "threshold", "progress",
            "is_final", "icon_name", "icon_path", "glyph",
        ]
        #expect(Set(w.petView(ctx).dbus.vardictValue?.keys ?? [:].keys) == petKeys)
        for entry in w.timeline(ctx) { #expect(entry.dbus.vardictValue?.mapValues(\.signature) == Self.entryKeyTypes) }
    }

    @Test func listTasksRecords() throws {
        let (w, ctx, ids) = try fixedScenario()
        let open = w.openDayRecords(ctx)
        #expect(
            open.map { render($0["id"]) } == [ids["standup"], ids["lunch"], ids["report"], ids["email"]].map {
                render(.string($0 ?? ""))
            } + [render(.string("20260302-6"))])
        let standup = open[0]
        #expect(render(standup["done"]) == "b:true" && render(standup["xp"]) == "i:2")
        #expect(render(standup["completed_at"]) == "x:\(at("2026-03-02T09:05:00Z"))")
        #expect(render(standup["completed_seq"]) != "t:0")
        let stretch = open[4]
        #expect(
            render(stretch["repeat"]) == "s:\"daily\""
                && render(stretch["template_id"]) == "s:\"\(ids["stretch"] ?? "")\"")
        let tomorrow = w.tomorrowRecords(ctx)
        #expect(tomorrow.count == 1)
        #expect(render(tomorrow[0]["is_next"]) == "b:false" && render(tomorrow[0]["overdue"]) == "b:false")
        #expect(render(tomorrow[0]["day_key"]) == "s:\"2026-03-03\"")
        // Tomorrow's carry the instants they will turn due and overdue, as things stand now.
        #expect(render(tomorrow[0]["due"]) == "b:false" && render(tomorrow[0]["due_at"]) != "x:0")
        // Read later in the day, the snoozed walk is overdue and still next.
        var late = ctx
        late.now = at("2026-03-02T13:30:00Z")
        let later = w.openDayRecords(late)
        #expect(render(later[1]["overdue"]) == "b:true" && render(later[1]["is_next"]) == "b:true")
    }

    @Test func petKeysAtTheFinalStageAndWithoutIcons() {
        var (w, ctx) = monday("10:00")
        w.openingPet = PetState(stageIndex: 19, stageXP: 7)
        let pet = w.petView(ctx)
        #expect(
            render(pet) == """
                glyph=s:"✨" icon_name=s:"petprogress-god" icon_path=s:"" is_final=b:true progress=d:1.0 \
                stage_count=i:20 stage_index=i:19 stage_name=s:"Floating God" stage_xp=i:7 threshold=i:0
                """)
        _ = w.catchUp(ctx, startingUp: true)
        #expect(
            render(w.widgetEntry(ctx)["accessible_text"])
                == "s:\"Floating God, stage 20 of 20, final form, 7 XP. No tasks planned.\"")
    }

    @Test func aStoredIndexPastAShorterTableReadsAsTheFinalStage() throws {
        let short = try StageTable(stages: [
            Stage(i: 0, name: "Egg", threshold: 5, asset: "pet_egg.png"),
            Stage(i: 1, name: "Bird", threshold: 0, asset: "pet_bird.png"),
        ])
        let pet = PetView(PetState(stageIndex: 12, stageXP: 40), stages: short, iconPath: { _ in "" })
        #expect(render(pet["stage_index"]) == "i:1" && render(pet["stage_count"]) == "i:2")
        #expect(render(pet["glyph"]) == "s:\"🐾\"" && render(pet["progress"]) == "d:1.0")
    }

    @Test func accessibleTextForms() {
        let t = StageTable.builtIn
        let frog = PetState(stageIndex: 2, stageXP: 12)
        #expect(
            AccessibleText.sentence(
                pet: frog, stages: t, done: 2, total: 5,
                next: .init(time: "14:30", title: "Write report", overdue: false))
                == "Frog, stage 3 of 20, 12 of 30 XP. 2 of 5 tasks done. Next: 14:30 Write report.")
        #expect(
            AccessibleText.sentence(
                pet: frog, stages: t, done: 0, total: 1,
                next: .init(time: "08:00", title: "Run", overdue: true))
                == "Frog, stage 3 of 20, 12 of 30 XP. 0 of 1 task done. Next: 08:00 Run, overdue.")
        #expect(
            AccessibleText.sentence(pet: frog, stages: t, done: 3, total: 3, next: nil)
                == "Frog, stage 3 of 20, 12 of 30 XP. 3 of 3 tasks done. Nothing pending.")
    }
}
