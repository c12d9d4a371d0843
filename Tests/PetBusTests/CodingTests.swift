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
        scheduledAt: 1_772_461_800, overdue: true, isNext: true, xp: 0, repeatRule: "", templateID: "")
    static let entry = WidgetEntry(
        date: 1_772_456_400, nextDate: 1_772_460_000, dayKey: "2026-03-02", pet: pet, tasksDone: 1, tasksTotal: 5,
        nextTaskID: task.id, nextTaskTitle: task.title, nextTaskTime: "14:45", nextTaskOverdue: true,
        upcoming: [task], accessibleText: "Frog, stage 3 of 20, 12 of 30 XP. 1 of 5 tasks done.")

    @Test func everyValueRoundTrips() throws {
        #expect(try PetView(dbus: Self.pet.dbus) == Self.pet)
        #expect(try TaskRecord(dbus: Self.task.dbus) == Self.task)
        #expect(try WidgetEntry(dbus: Self.entry.dbus) == Self.entry)
        let template = TemplateRecord(id: "t-7", title: "Stretch", time: "07:00", repeatRule: "mon,wed")
        #expect(try TemplateRecord(dbus: template.dbus) == template)
        let status = ServiceStatus(
            version: "0.1.0", dataDirectory: "/d", lastClosedDay: "2026-03-01", openDay: "2026-03-02",
            mutations: 42, problems: ["one", "two"], now: 1_772_461_800)
        #expect(try ServiceStatus(dbus: status.dbus) == status)
    }

    @Test func theEntryIsOneFlatDictionaryWithThePetKeys() {
        let keys = Set(Self.entry.dbus.vardictValue?.keys ?? [:].keys)
        #expect(keys.isSuperset(of: Set(Self.pet.dbus.vardictValue?.keys ?? [:].keys)))
        #expect(keys.count == 21)
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
            "org.freedesktop.DBus.Error.ServiceUnknown", "org.freedesktop.DBus.Error.NoReply",
            "org.freedesktop.DBus.Error.Spawn.ChildExited", "org.freedesktop.DBus.Error.NameHasNoOwner",
        ] {
            let error = DBusError(name: name, message: "m")
            #expect(PetClientError(error) == .unreachable(error), "\(name)")
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
        #expect(PetBus.Method.allCases.count == 15)
        #expect(PetBus.Method.addTaskFor.inSignature == "ssss" && PetBus.Method.addTaskFor.outSignature == "s")
        #expect(PetBus.Method.markNextDone.outSignature == "si" && PetBus.Method.snoozeNext.outSignature == "sx")
        for method in PetBus.Method.allCases {
            #expect(PetBus.interfaceXML.contains("<method name=\"\(method.rawValue)\">"))
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
