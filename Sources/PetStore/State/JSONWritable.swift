import PetCore

/// A value the store writes into its JSON files, by hand: each type writes its fields under the
/// names Swift's synthesized `Codable` gave them (the names `Decodable` reads back), sorted by
/// their UTF-8 bytes, leaving out optionals that are nil — the shape `JSONEncoder` wrote.
protocol JSONWritable {
    func write(to json: inout JSONWriter)
}

extension JSONWriter {
    mutating func write(_ value: some JSONWritable) { value.write(to: &self) }

    /// One member of an object: its key, then its value.
    mutating func field(_ name: StaticString, _ value: some JSONWritable) {
        key(name)
        value.write(to: &self)
    }

    /// A member written only when it has a value (synthesized `Codable` leaves nil out).
    mutating func field(_ name: StaticString, _ value: (some JSONWritable)?) {
        if let value { field(name, value) }
    }

    mutating func array<T: JSONWritable>(_ values: [T]) {
        beginArray()
        for value in values {
            element()
            value.write(to: &self)
        }
        endArray()
    }
}

extension Int: JSONWritable { func write(to json: inout JSONWriter) { json.integer(self) } }
extension Int64: JSONWritable { func write(to json: inout JSONWriter) { json.integer(self) } }
extension UInt64: JSONWritable { func write(to json: inout JSONWriter) { json.integer(self) } }
extension Bool: JSONWritable { func write(to json: inout JSONWriter) { json.bool(self) } }
extension Double: JSONWritable { func write(to json: inout JSONWriter) { json.double(self) } }
extension String: JSONWritable { func write(to json: inout JSONWriter) { json.string(self) } }
extension Array: JSONWritable where Element: JSONWritable {
    func write(to json: inout JSONWriter) { json.array(self) }
}

// Values stored as their text form (`TextCodable`): `description`, or the same digits written
// directly where the fields fit their widths (always, for dates and times PetCore makes).
extension CivilDate: JSONWritable {
    func write(to json: inout JSONWriter) {
        guard (0...9999).contains(year), (0...99).contains(month), (0...99).contains(day) else {
            return json.string(description)
        }
        json.paddedFields([(year, 4), (month, 2), (day, 2)], separator: UInt8(ascii: "-"))
    }
}

extension WallTime: JSONWritable {
    func write(to json: inout JSONWriter) {
        guard (0...99).contains(hour), (0...99).contains(minute) else { return json.string(description) }
        json.paddedFields([(hour, 2), (minute, 2)], separator: UInt8(ascii: ":"))
    }
}

extension Repeat: JSONWritable {
    func write(to json: inout JSONWriter) { json.string(description) }
}

extension PetState: JSONWritable {
    func write(to json: inout JSONWriter) {
        json.beginObject()
        json.field("stageIndex", stageIndex)
        json.field("stageXP", stageXP)
        json.endObject()
    }
}

extension Day: JSONWritable {
    func write(to json: inout JSONWriter) {
        json.beginObject()
        json.field("end", end)
        json.field("key", key)
        json.field("start", start)
        json.endObject()
    }
}

extension Settings: JSONWritable {
    func write(to json: inout JSONWriter) {
        json.beginObject()
        json.field("graceMinutes", graceMinutes)
        json.field("resetTime", resetTime)
        json.field("rollover", rollover)
        json.field("snoozeMinutes", snoozeMinutes)
        json.endObject()
    }
}

extension VisibleSnapshot: JSONWritable {
    func write(to json: inout JSONWriter) {
        json.beginObject()
        json.field("pet", pet)
        json.field("tick", tick)
        json.endObject()
    }
}

extension TaskItem: JSONWritable {
    func write(to json: inout JSONWriter) {
        json.beginObject()
        json.field("completedAt", completedAt)
        json.field("completedSeq", completedSeq)
        json.field("dayKey", dayKey)
        json.field("id", id)
        json.field("order", order)
        json.field("repeatRule", repeatRule)
        json.field("scheduled", scheduled)
        json.field("snoozedUntil", snoozedUntil)
        json.field("templateID", templateID)
        json.field("time", time)
        json.field("title", title)
        json.field("xp", xp)
        json.endObject()
    }
}

extension Template: JSONWritable {
    func write(to json: inout JSONWriter) {
        json.beginObject()
        json.field("firstDay", firstDay)
        json.field("id", id)
        json.field("order", order)
        json.field("repeatRule", repeatRule)
        json.field("time", time)
        json.field("title", title)
        json.endObject()
    }
}

extension PetWorld: JSONWritable {
    func write(to json: inout JSONWriter) {
        json.beginObject()
        json.field("lastClosedDay", lastClosedDay)
        json.field("mutations", mutations)
        json.field("openDay", openDay)
        json.field("openDayLive", openDayLive)
        json.field("openingPet", openingPet)
        json.field("restDays", restDays)
        json.field("serial", serial)
        json.field("settings", settings)
        json.field("snapshot", snapshot)
        json.field("tasks", tasks)
        json.field("templates", templates)
        json.field("tomorrow", tomorrow)
        json.endObject()
    }
}

extension DayRecord: JSONWritable {
    func write(to json: inout JSONWriter) {
        json.beginObject()
        json.field("day", day)
        json.field("done", done)
        json.field("petAtClose", petAtClose)
        json.field("petAtOpen", petAtOpen)
        json.field("rate", rate)
        json.field("rest", rest)
        json.field("resultXP", resultXP)
        json.field("tasks", tasks)
        json.field("total", total)
        json.field("xpChange", xpChange)
        json.endObject()
    }
}
