import PetCore

extension DayRecord: Decodable, JSONWritable {
    /// `day` sorts first: start-up reads a line's day key from its first bytes (`HistoryLine.fastDay`).
    enum Key {
        static var day: StoredKey { StoredKey("day") }
        static var done: StoredKey { StoredKey("done") }
        static var petAtClose: StoredKey { StoredKey("petAtClose") }
        static var petAtOpen: StoredKey { StoredKey("petAtOpen") }
        static var presence: StoredKey { StoredKey("presence") }
        static var rate: StoredKey { StoredKey("rate") }
        static var rest: StoredKey { StoredKey("rest") }
        static var resultXP: StoredKey { StoredKey("resultXP") }
        static var tasks: StoredKey { StoredKey("tasks") }
        static var total: StoredKey { StoredKey("total") }
        static var xpChange: StoredKey { StoredKey("xpChange") }
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: StoredKey.self)
        let day = try c.decode(Day.self, forKey: Key.day)
        let tasks = try c.decode([TaskItem].self, forKey: Key.tasks)
        let done = try c.decodeCount(Int.self, forKey: Key.done)
        let total = try c.decodeCount(Int.self, forKey: Key.total)
        let rate = try c.decode(Double.self, forKey: Key.rate)
        guard (0...1).contains(rate) else { throw c.outOfBounds(Key.rate, "\(rate) is not a rate (0…1)") }
        let petAtOpen = try c.decode(PetState.self, forKey: Key.petAtOpen)
        let petAtClose = try c.decode(PetState.self, forKey: Key.petAtClose)
        let xpChange = try c.decode(Int.self, forKey: Key.xpChange, within: Bounds.xpChange, "an XP change")
        let rest = try c.decode(Bool.self, forKey: Key.rest)
        let resultXP = try c.decode(Int.self, forKey: Key.resultXP, within: Bounds.xpChange, "an XP change")
        let presence = try c.decode(Presence.self, forKey: Key.presence)
        self.init(
            day: day, tasks: tasks, done: done, total: total, rate: rate, petAtOpen: petAtOpen, petAtClose: petAtClose,
            xpChange: xpChange, rest: rest, resultXP: resultXP, presence: presence)
        // At most a day's tasks, counts that agree with them: the check every write passes too.
        if let problem = boundsProblem() { throw c.outOfBounds(problem) }
    }

    func write(to json: inout JSONWriter) {
        json.beginObject()
        json.field(Key.day, day)
        json.field(Key.done, done)
        json.field(Key.petAtClose, petAtClose)
        json.field(Key.petAtOpen, petAtOpen)
        json.field(Key.presence, presence)
        json.field(Key.rate, rate)
        json.field(Key.rest, rest)
        json.field(Key.resultXP, resultXP)
        json.field(Key.tasks, tasks)
        json.field(Key.total, total)
        json.field(Key.xpChange, xpChange)
        json.endObject()
    }
}

/// A day's presence is stored as its word, `present`, `away` or `return`: one field, so a record is
/// never both an away and a return day, and its key sorts after `day`, which a line starts with.
extension Presence: Decodable, StoredText {
    init?(storedText: String) { self.init(rawValue: storedText) }
    public init(from decoder: any Decoder) throws { self = try Self.decodeText(decoder) }
    public var description: String { rawValue }
    func write(to json: inout JSONWriter) { json.string(rawValue) }
}
