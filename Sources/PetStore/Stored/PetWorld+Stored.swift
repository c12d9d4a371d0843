import PetCore

extension PetWorld: Decodable, JSONWritable {
    enum Key: String, CodingKey {
        case lastClosedDay, mutations, openDay, openDayLive, openingPet, restDays, serial, settings, snapshot, tasks
        case templates, tomorrow
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: Key.self)
        let settings = try c.decode(Settings.self, forKey: .settings)
        let openingPet = try c.decode(PetState.self, forKey: .openingPet)
        let openDay = try c.decode(Day.self, forKey: .openDay)
        let openDayLive = try c.decode(Bool.self, forKey: .openDayLive)
        let tasks = try c.decode([TaskItem].self, forKey: .tasks)
        let tomorrow = try c.decode([TaskItem].self, forKey: .tomorrow)
        let templates = try c.decode([Template].self, forKey: .templates)
        let restDays = try c.decode([DayKey].self, forKey: .restDays)
        let lastClosedDay = try c.decodeIfPresent(DayKey.self, forKey: .lastClosedDay)
        let mutations = try c.decode(UInt64.self, forKey: .mutations)
        let serial = try c.decode(UInt64.self, forKey: .serial)
        let snapshot = try c.decodeIfPresent(VisibleSnapshot.self, forKey: .snapshot)
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
