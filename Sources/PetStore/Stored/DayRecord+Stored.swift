import PetCore

extension DayRecord: Decodable, JSONWritable {
    /// `day` sorts first: start-up reads a line's day key from its first bytes (`HistoryLine.fastDay`).
    enum Key: String, CodingKey {
        case day, done, petAtClose, petAtOpen, rate, rest, resultXP, tasks, total, xpChange
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: Key.self)
        let day = try c.decode(Day.self, forKey: .day)
        let tasks = try c.decode([TaskItem].self, forKey: .tasks)
        let done = try c.decode(Int.self, forKey: .done)
        let total = try c.decode(Int.self, forKey: .total)
        let rate = try c.decode(Double.self, forKey: .rate)
        let petAtOpen = try c.decode(PetState.self, forKey: .petAtOpen)
        let petAtClose = try c.decode(PetState.self, forKey: .petAtClose)
        let xpChange = try c.decode(Int.self, forKey: .xpChange)
        let rest = try c.decode(Bool.self, forKey: .rest)
        let resultXP = try c.decode(Int.self, forKey: .resultXP)
        self.init(
            day: day, tasks: tasks, done: done, total: total, rate: rate, petAtOpen: petAtOpen, petAtClose: petAtClose,
            xpChange: xpChange, rest: rest, resultXP: resultXP)
    }

    func write(to json: inout JSONWriter) {
        json.beginObject()
        json.field(Key.day, day)
        json.field(Key.done, done)
        json.field(Key.petAtClose, petAtClose)
        json.field(Key.petAtOpen, petAtOpen)
        json.field(Key.rate, rate)
        json.field(Key.rest, rest)
        json.field(Key.resultXP, resultXP)
        json.field(Key.tasks, tasks)
        json.field(Key.total, total)
        json.field(Key.xpChange, xpChange)
        json.endObject()
    }
}
