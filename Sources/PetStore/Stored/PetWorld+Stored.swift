import PetCore

extension PetWorld: Decodable, JSONWritable {
    enum Key {
        static var lastClosedDay: StoredKey { StoredKey("lastClosedDay") }
        static var lookBackTouched: StoredKey { StoredKey("lookBackTouched") }
        static var mutations: StoredKey { StoredKey("mutations") }
        static var openDay: StoredKey { StoredKey("openDay") }
        static var openDayLive: StoredKey { StoredKey("openDayLive") }
        static var openingPet: StoredKey { StoredKey("openingPet") }
        static var restDays: StoredKey { StoredKey("restDays") }
        static var serial: StoredKey { StoredKey("serial") }
        static var settings: StoredKey { StoredKey("settings") }
        static var snapshot: StoredKey { StoredKey("snapshot") }
        static var tasks: StoredKey { StoredKey("tasks") }
        static var templates: StoredKey { StoredKey("templates") }
        static var tomorrow: StoredKey { StoredKey("tomorrow") }
        static var touchedDays: StoredKey { StoredKey("touchedDays") }
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: StoredKey.self)
        let settings = try c.decode(Settings.self, forKey: Key.settings)
        let openingPet = try c.decode(PetState.self, forKey: Key.openingPet)
        let openDay = try c.decode(Day.self, forKey: Key.openDay)
        let openDayLive = try c.decode(Bool.self, forKey: Key.openDayLive)
        let tasks = try c.decode([TaskItem].self, forKey: Key.tasks)
        let tomorrow = try c.decode([TaskItem].self, forKey: Key.tomorrow)
        let templates = try c.decode([Template].self, forKey: Key.templates)
        let restDays = try c.decode([DayKey].self, forKey: Key.restDays)
        let lastClosedDay = try c.decodeIfPresent(DayKey.self, forKey: Key.lastClosedDay)
        let mutations = try c.decode(UInt64.self, forKey: Key.mutations)
        let serial = try c.decode(UInt64.self, forKey: Key.serial)
        let snapshot = try c.decodeIfPresent(VisibleSnapshot.self, forKey: Key.snapshot)
        let touchedDays = try c.decode([DayKey].self, forKey: Key.touchedDays)
        let lookBackTouched = try c.decode(Bool.self, forKey: Key.lookBackTouched)
        self.init(
            settings: settings, openingPet: openingPet, openDay: openDay, openDayLive: openDayLive, tasks: tasks,
            tomorrow: tomorrow, templates: templates, restDays: restDays, lastClosedDay: lastClosedDay,
            mutations: mutations, serial: serial, snapshot: snapshot, touchedDays: touchedDays,
            lookBackTouched: lookBackTouched)
    }

    func write(to json: inout JSONWriter) {
        json.beginObject()
        json.field(Key.lastClosedDay, lastClosedDay)
        json.field(Key.lookBackTouched, lookBackTouched)
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
        json.field(Key.touchedDays, touchedDays)
        json.endObject()
    }
}
