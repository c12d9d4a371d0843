import DBusKit
import PetBus
import PetCore
import Testing

/// PetBus's values ⇄ `DBusValue` in both directions, its errors both ways, and clear decoding
/// errors for replies that do not have the contract's shape.
@Suite struct CodingTests {
    static let pet = PetView(
        stageIndex: 2, stageCount: 20, stageName: "Frog", stageXP: 12, threshold: 30, progress: 0.4, isFinal: false,
        iconName: "petprogress-frog", iconPath: "/usr/share/icons/hicolor/512x512/apps/petprogress-frog.png",
        glyph: "🐸")
    static let task = TaskRecord(
        id: "20260302-4", title: "Write <report> & \"notes\" 🦀", time: "14:30", effectiveTime: "14:45",
        dayKey: "2026-03-02", done: false, completedAt: 0, completedSeq: 0, snoozedUntil: 1_772_462_700,
        scheduledAt: 1_772_461_800, overdue: true, isNext: true, xp: 0, repeatRule: "", templateID: "", due: true,
        dueAt: 1_772_462_700, overdueAt: 1_772_465_401)
    static let entry = WidgetEntry(
        date: 1_772_456_400, nextDate: 1_772_460_000, dayKey: "2026-03-02", pet: pet, tasksDone: 1, tasksTotal: 5,
        nextTaskID: task.id, nextTaskTitle: task.title, nextTaskTime: "14:45", nextTaskOverdue: true,
        upcoming: [task], restDay: true,
        accessibleText: "Frog, stage 3 of 20, 12 of 30 XP. Rest day. 1 of 5 tasks done.", nextTaskDue: true)
    static let history = HistoryRecord(
        dayKey: "2026-03-01", start: 1_772_319_600, end: 1_772_406_000, tasksDone: 1, tasksTotal: 2, rate: 0.5,
        rest: false, xpChange: -1, dailyXP: 0, stageIndexOpen: 2, stageXPOpen: 12, stageIndexClose: 2,
        stageXPClose: 11, stageNameClose: "Frog",
        tasks: [
            TaskRecord(
                id: "20260301-1", title: "Walk", time: "08:00", effectiveTime: "08:00", dayKey: "2026-03-01",
                done: true, completedAt: 1_772_348_400, completedSeq: 3, snoozedUntil: 0, scheduledAt: 1_772_348_400,
                overdue: false,
                isNext: false, xp: 1, repeatRule: "daily", templateID: "t-1"),
            TaskRecord(
                id: "20260301-2", title: "Read", time: "21:00", effectiveTime: "21:15", dayKey: "2026-03-01",
                done: false, completedAt: 0, completedSeq: 0, snoozedUntil: 1_772_396_100, scheduledAt: 1_772_395_200,
                overdue: false,
                isNext: false, xp: 0, repeatRule: "", templateID: ""),
        ])

    @Test func everyValueRoundTrips() throws {
        #expect(try PetView(dbus: Self.pet.dbus) == Self.pet)
        #expect(try TaskRecord(dbus: Self.task.dbus) == Self.task)
        #expect(try WidgetEntry(dbus: Self.entry.dbus) == Self.entry)
        let template = TemplateRecord(id: "t-7", title: "Stretch", time: "07:00", repeatRule: "mon,wed")
        #expect(try TemplateRecord(dbus: template.dbus) == template)
        var status = ServiceStatus(
            version: "0.1.0", dataDirectory: "/d", lastClosedDay: "2026-03-01", openDay: "2026-03-02",
            mutations: 42, problems: ["one", "two"], now: 1_772_461_800)
        status.openDayEnd = 1_772_492_400
        #expect(try ServiceStatus(dbus: status.dbus) == status)
        #expect(try HistoryRecord(dbus: Self.history.dbus) == Self.history)
        var rest = Self.history
        rest.rest = true
        rest.dailyXP = 0
        #expect(try HistoryRecord(dbus: rest.dbus) == rest)
    }

    /// The daemon writes the entry and the pet straight into the message; read back,
    /// the body is the very value clients decode, key order included, and a NUL cannot cut a
    /// string short.
    @Test func theBodyWrittenIntoTheMessageIsTheValue() throws {
        #expect(try EncodedBody { Self.entry.encode(into: &$0) }.values() == [Self.entry.dbus])
        #expect(try EncodedBody { Self.pet.encode(into: &$0) }.values() == [Self.pet.dbus])
        let property = try EncodedBody { body in body.variantOfVardict { Self.entry.encode(into: &$0) } }
        #expect(property.signature == "v")
        #expect(try property.values() == [.variant(Self.entry.dbus)])
        var nul = Self.pet
        nul.stageName = "Fr\u{0}og"
        let read = try EncodedBody { nul.encode(into: &$0) }.values().first?.vardictValue?["stage_name"]
        #expect(read == .string("Fr\u{FFFD}og"))
    }

    @Test func aHistoryRecordHasEveryKeyOfTheContract() {
        let types = (Self.history.dbus.vardictValue ?? [:]).mapValues(\.signature)
        #expect(
            types == [
                "day_key": "s", "start": "x", "end": "x", "tasks_done": "i", "tasks_total": "i", "rate": "d",
                "rest": "b", "away": "b", "return": "b", "xp_change": "i", "daily_xp": "i", "stage_index_open": "i",
                "stage_xp_open": "i", "stage_index_close": "i", "stage_xp_close": "i", "stage_name_close": "s",
                "tasks": "aa{sv}",
            ])
    }

    /// `rest_day` came later: an entry from an older daemon, without it, reads as not a rest day;
    /// one carrying it with another type is still an error.
    @Test func anEntryWithoutRestDayReadsAsNotARestDay() throws {
        guard case .dictionary(let k, let v, let entries) = Self.entry.dbus else { return }
        let older = entries.filter { $0.key.stringValue != "rest_day" }
        var expected = Self.entry
        expected.restDay = false
        #expect(try WidgetEntry(dbus: .dictionary(keySignature: k, valueSignature: v, older)) == expected)
        let mistyped = entries.map {
            $0.key.stringValue == "rest_day" ? DBusValue.DictEntry(key: $0.key, value: .variant(.int32(1))) : $0
        }
        #expect(throws: BusDecodingError("The widget entry key 'rest_day' should be 'b', not 'i'.")) {
            try WidgetEntry(dbus: .dictionary(keySignature: k, valueSignature: v, mistyped))
        }
    }

    @Test func theEntryIsOneFlatDictionaryWithThePetKeys() {
        let keys = Set(Self.entry.dbus.vardictValue?.keys ?? [:].keys)
        #expect(keys.isSuperset(of: Set(Self.pet.dbus.vardictValue?.keys ?? [:].keys)))
        #expect(keys.count == 23)
        #expect(keys.contains("rest_day") && keys.contains("next_task_due"))
        #expect(Self.entry.dbus.signature == "a{sv}")
    }

    @Test func integersBeyond32BitsAreClampedOnTheWire() throws {
        var big = Self.pet
        big.stageXP = Int(Int32.max) + 5
        #expect(try PetView(dbus: big.dbus).stageXP == Int(Int32.max))
    }

    @Test func unknownKeysAreIgnoredAndMissingOrMistypedKeysAreNamed() throws {
        guard case .dictionary(let k, let v, var entries) = Self.task.dbus else { return }
        entries.append(.init(key: .string("future_key"), value: .variant(.string("ignored"))))
        #expect(try TaskRecord(dbus: .dictionary(keySignature: k, valueSignature: v, entries)) == Self.task)

        let missing = entries.filter { $0.key.stringValue != "title" }
        #expect(throws: BusDecodingError("A task record lacks the key 'title'.")) {
            try TaskRecord(dbus: .dictionary(keySignature: k, valueSignature: v, missing))
        }
        let mistyped = entries.map {
            $0.key.stringValue == "xp" ? DBusValue.DictEntry(key: $0.key, value: .variant(.int64(2))) : $0
        }
        #expect(throws: BusDecodingError("A task record key 'xp' should be 'i', not 'x'.")) {
            try TaskRecord(dbus: .dictionary(keySignature: k, valueSignature: v, mistyped))
        }
        #expect(throws: BusDecodingError("The widget entry should be a{sv}, not 's'.")) {
            try WidgetEntry(dbus: .string("no"))
        }
    }

    @Test func errorsMapBothWays() {
        for kind in PetError.Kind.allCases {
            let error = PetError(kind, "A sentence.")
            #expect(error.dbus.name == "io.petprogress.PetProgress1.Error.\(kind.rawValue)")
            #expect(PetError(dbus: error.dbus) == error)
            #expect(PetClientError(error.dbus) == .rejected(error))
        }
        #expect(PetError(dbus: DBusError(name: "io.petprogress.PetProgress1.Error.Nonsense", message: "")) == nil)
        #expect(PetError(dbus: .invalidArgs("x")) == nil)
    }

    @Test func unreachableIsToldApartFromOtherFailures() {
        for name in [
            "org.freedesktop.DBus.Error.ServiceUnknown", "org.freedesktop.DBus.Error.Disconnected",
            "org.freedesktop.DBus.Error.Spawn.ChildExited", "org.freedesktop.DBus.Error.NameHasNoOwner",
        ] {
            let error = DBusError(name: name, message: "m")
            #expect(PetClientError(error) == .unreachable(error), "\(name)")
        }
        // Sent but not answered in time: the request may have taken effect (petprogress(7) §7, exit 4).
        for name in ["org.freedesktop.DBus.Error.NoReply", "org.freedesktop.DBus.Error.Timeout"] {
            let error = DBusError(name: name, message: "m")
            #expect(PetClientError(error) == .noAnswer(error), "\(name)")
        }
        #expect(PetClientError(.invalidArgs("m")) == .failed(.invalidArgs("m")))
    }

    @Test func settingsDecodeFromGetAll() throws {
        var settings = Settings()
        settings.graceMinutes = 30
        settings.rollover = true
        let all = DBusValue.vardict(
            PetBus.Property.allCases.compactMap { p in settings.dbus(p).map { (p.rawValue, $0) } }
                + [("WidgetEntry", Self.entry.dbus)])
        #expect(try Settings(dbus: all) == settings)
    }

    @Test func membersCarryTheContractsSignatures() {
        #expect(PetBus.Methods.all.count == 24)
        #expect(
            PetBus.Methods.exportStorePart.inSignature == "s" && PetBus.Methods.exportStorePart.outSignature == "ssb")
        #expect(PetBus.Methods.listGenerations.inSignature == "" && PetBus.Methods.listGenerations.outSignature == "aa{sv}")
        #expect(PetBus.Methods.restore.inSignature == "sb" && PetBus.Methods.restore.outSignature == "a{sv}")
        #expect(
            PetBus.Methods.importDocument.inSignature == "hbb" && PetBus.Methods.importDocument.outSignature == "a{sv}")
        #expect(
            PetBus.Methods.acknowledgeProblems.inSignature == ""
                && PetBus.Methods.acknowledgeProblems.outSignature == "")
        #expect(PetBus.Methods.setRest.inSignature == "ssb" && PetBus.Methods.setRest.outSignature == "")
        #expect(PetBus.Methods.listRestDays.inSignature == "" && PetBus.Methods.listRestDays.outSignature == "as")
        #expect(PetBus.Methods.getHistory.inSignature == "ss" && PetBus.Methods.getHistory.outSignature == "aa{sv}b")
        #expect(PetBus.Methods.addTaskFor.inSignature == "ssss" && PetBus.Methods.addTaskFor.outSignature == "s")
        #expect(PetBus.Methods.markNextDone.outSignature == "si" && PetBus.Methods.snoozeNext.outSignature == "sx")
        for method in PetBus.Methods.all {
            #expect(PetBus.interfaceXML.contains("<method name=\"\(method.name)\">"))
        }
        for signal in PetBus.Signal.allCases {
            #expect(PetBus.interfaceXML.contains("<signal name=\"\(signal.rawValue)\""))
        }
        for property in PetBus.Property.allCases {
            #expect(
                PetBus.interfaceXML.contains(
                    "<property name=\"\(property.rawValue)\" type=\"\(property.signature)\""))
        }
    }
}
