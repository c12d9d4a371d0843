import PetCore

extension Settings: Decodable, JSONWritable {
    enum Key: String, CodingKey {
        case graceMinutes, resetTime, rollover, snoozeMinutes
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: Key.self)
        self.init()
        resetTime = try c.decode(WallTime.self, forKey: .resetTime)
        graceMinutes = try c.decode(Int.self, forKey: .graceMinutes)
        snoozeMinutes = try c.decode(Int.self, forKey: .snoozeMinutes)
        rollover = try c.decode(Bool.self, forKey: .rollover)
    }

    func write(to json: inout JSONWriter) {
        json.beginObject()
        json.field(Key.graceMinutes, graceMinutes)
        json.field(Key.resetTime, resetTime)
        json.field(Key.rollover, rollover)
        json.field(Key.snoozeMinutes, snoozeMinutes)
        json.endObject()
    }
}
