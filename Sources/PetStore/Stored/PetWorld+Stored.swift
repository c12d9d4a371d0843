import PetCore

extension PetWorld: Decodable, JSONWritable {
    enum Key {
        static var lastClosedDay: StoredKey { StoredKey("lastClosedDay") }
        static var lastNumber: StoredKey { StoredKey("lastNumber") }
        static var lastTomorrowNumber: StoredKey { StoredKey("lastTomorrowNumber") }
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
        let mutations = try c.decodeCount(UInt64.self, forKey: Key.mutations)
        let serial = try c.decodeCount(UInt64.self, forKey: Key.serial)
        let snapshot = try c.decodeIfPresent(VisibleSnapshot.self, forKey: Key.snapshot)
        try Self.check(tasks: tasks, tomorrow: tomorrow, templates: templates, serial: serial, c)
        let touchedDays = try c.decode([DayKey].self, forKey: Key.touchedDays)
        let lookBackTouched = try c.decode(Bool.self, forKey: Key.lookBackTouched)
        let lastNumber = try c.decodeCount(Int.self, forKey: Key.lastNumber)
        let lastTomorrowNumber = try c.decodeCount(Int.self, forKey: Key.lastTomorrowNumber)
        for (key, list, last) in [(Key.tasks, tasks, lastNumber), (Key.tomorrow, tomorrow, lastTomorrowNumber)] {
            try Self.checkNumbers(list, last: last, key, c)
        }
        // Ascending, each once: the order `SetRest` and `touch` keep.
        for (key, days) in [(Key.restDays, restDays), (Key.touchedDays, touchedDays)] {
            if let i = days.indices.dropFirst().first(where: { days[$0] <= days[$0 - 1] }) {
                throw c.outOfBounds(key, "\(days[i]) follows \(days[i - 1]); the days are ascending, each once")
            }
        }
        self.init(
            settings: settings, openingPet: openingPet, openDay: openDay, openDayLive: openDayLive, tasks: tasks,
            tomorrow: tomorrow, templates: templates, restDays: restDays, lastClosedDay: lastClosedDay,
            mutations: mutations, serial: serial, snapshot: snapshot, touchedDays: touchedDays,
            lookBackTouched: lookBackTouched, lastNumber: lastNumber, lastTomorrowNumber: lastTomorrowNumber)
        // The check every write passes too (petprogress(7) §5): one bounds check for both.
        if let problem = boundsProblem() { throw c.outOfBounds(problem) }
    }

    /// A day's task numbers are each used once and none is past the last one handed out (a later
    /// task would repeat it).
    private static func checkNumbers(
        _ tasks: [TaskItem], last: Int, _ key: StoredKey, _ c: KeyedDecodingContainer<StoredKey>
    ) throws {
        var seen = Set<Int>()
        for task in tasks {
            guard task.number <= last else {
                throw c.outOfBounds(key, "task number \(task.number) is past the last number handed out, \(last)")
            }
            guard seen.insert(task.number).inserted else {
                throw c.outOfBounds(key, "task number \(task.number) is used twice")
            }
        }
    }

    /// At most a day's tasks on each day and the templates' limit, and no id made from a serial
    /// not yet handed out (a later id would repeat it).
    private static func check(
        tasks: [TaskItem], tomorrow: [TaskItem], templates: [Template], serial: UInt64,
        _ c: KeyedDecodingContainer<StoredKey>
    ) throws {
        for (key, count, limit) in [
            (Key.tasks, tasks.count, maxTasksPerDay), (Key.tomorrow, tomorrow.count, maxTasksPerDay),
            (Key.templates, templates.count, maxTemplates),
        ] where count > limit {
            throw c.outOfBounds(key, "it holds \(count) entries; the limit is \(limit)")
        }
        let highest = max(
            tasks.lazy.map(\.order).max() ?? 0, tomorrow.lazy.map(\.order).max() ?? 0,
            templates.lazy.map(\.order).max() ?? 0)
        guard highest <= serial else {
            throw c.outOfBounds(Key.serial, "\(serial) is below the serial \(highest) an id was made from")
        }
    }

    func write(to json: inout JSONWriter) {
        json.beginObject()
        json.field(Key.lastClosedDay, lastClosedDay)
        json.field(Key.lastNumber, lastNumber)
        json.field(Key.lastTomorrowNumber, lastTomorrowNumber)
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
