import PetCore

extension PetWorld: StoredObject {
    enum Key: String, CodingKey {
        case lastClosedDay, mutations, openDay, openDayLive, openingPet, restDays, serial, settings, snapshot, tasks
        case templates, tomorrow
    }

    init(stored c: KeyedDecodingContainer<Key>) throws {
        let settings: Settings = try c.decode(.settings)
        let openingPet: PetState = try c.decode(.openingPet)
        let openDay: Day = try c.decode(.openDay)
        let openDayLive = try c.decode(Bool.self, forKey: .openDayLive)
        let tasks: [TaskItem] = try c.decode(.tasks)
        let tomorrow: [TaskItem] = try c.decode(.tomorrow)
        let templates: [Template] = try c.decode(.templates)
        let restDays: [DayKey] = try c.decode(.restDays)
        let lastClosedDay: DayKey? = try c.decodeIfPresent(.lastClosedDay)
        let mutations = try c.decode(UInt64.self, forKey: .mutations)
        let serial = try c.decode(UInt64.self, forKey: .serial)
        let snapshot: VisibleSnapshot? = try c.decodeIfPresent(.snapshot)
        self.init(
            settings: settings, openingPet: openingPet, openDay: openDay, openDayLive: openDayLive, tasks: tasks,
            tomorrow: tomorrow, templates: templates, restDays: restDays, lastClosedDay: lastClosedDay,
            mutations: mutations, serial: serial, snapshot: snapshot)
    }

    func write(to json: inout JSONWriter) {
        json.beginObject()
        json.field(Key.lastClosedDay, lastClosedDay)
        json.field(Key.mutations, mutations)
        json.field(Key.openDay, openDay)
        json.field(Key.openDayLive, openDayLive)
        json.field(Key.openingPet, openingPet)
        json.field(Key.restDays, restDays)
        json.field(Key.serial, serial)
        json.field(Key.settings, settings)
        json.field(Key.snapshot, snapshot)
        json.field(Key.tasks, tasks)
        json.field(Key.templates, templates)
        json.field(Key.tomorrow, tomorrow)
        json.endObject()
    }
}
