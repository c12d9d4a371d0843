import PetCore

extension Settings: Decodable, JSONWritable {
    enum Key {
        static var graceMinutes: StoredKey { StoredKey("graceMinutes") }
        static var resetTime: StoredKey { StoredKey("resetTime") }
        static var rollover: StoredKey { StoredKey("rollover") }
        static var snoozeMinutes: StoredKey { StoredKey("snoozeMinutes") }
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: StoredKey.self)
        self.init()
        resetTime = try c.decode(WallTime.self, forKey: Key.resetTime)
        graceMinutes = try c.decode(Int.self, forKey: Key.graceMinutes, checkedBy: Settings.validGrace)
        snoozeMinutes = try c.decode(Int.self, forKey: Key.snoozeMinutes, checkedBy: Settings.validSnooze)
        rollover = try c.decode(Bool.self, forKey: Key.rollover)
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
