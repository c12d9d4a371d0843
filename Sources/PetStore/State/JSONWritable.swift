import PetCore

/// A value the store writes into its JSON files, by hand: each type writes its fields under the
/// names Swift's synthesized `Codable` gave them (the names `Decodable` reads back), sorted by
/// their UTF-8 bytes, leaving out optionals that are nil — the shape `JSONEncoder` wrote.
protocol JSONWritable {
    func write(to json: inout JSONWriter)
}

extension JSONWriter {
    mutating func write(_ value: some JSONWritable) { value.write(to: &self) }

    mutating func array<T: JSONWritable>(_ values: [T]) {
        beginArray()
        for value in values {
            element()
            value.write(to: &self)
        }
        endArray()
    }
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
        json.key("stageIndex")
        json.integer(stageIndex)
        json.key("stageXP")
        json.integer(stageXP)
        json.endObject()
    }
}

extension Day: JSONWritable {
    func write(to json: inout JSONWriter) {
        json.beginObject()
        json.key("end")
        json.integer(end)
        json.key("key")
        json.write(key)
        json.key("start")
        json.integer(start)
        json.endObject()
    }
}

extension Settings: JSONWritable {
    func write(to json: inout JSONWriter) {
        json.beginObject()
        json.key("graceMinutes")
        json.integer(graceMinutes)
        json.key("resetTime")
        json.write(resetTime)
        json.key("rollover")
        json.bool(rollover)
        json.key("snoozeMinutes")
        json.integer(snoozeMinutes)
        json.endObject()
    }
}

extension VisibleSnapshot: JSONWritable {
    func write(to json: inout JSONWriter) {
        json.beginObject()
        json.key("pet")
        json.write(pet)
        json.key("tick")
        json.integer(tick)
        json.endObject()
    }
}

extension TaskItem: JSONWritable {
    func write(to json: inout JSONWriter) {
        json.beginObject()
        if let completedAt {
            json.key("completedAt")
            json.integer(completedAt)
        }
        json.key("completedSeq")
        json.integer(completedSeq)
        json.key("dayKey")
        json.write(dayKey)
        json.key("id")
        json.string(id)
        json.key("order")
        json.integer(order)
        if let repeatRule {
            json.key("repeatRule")
            json.write(repeatRule)
        }
        json.key("scheduled")
        json.integer(scheduled)
        if let snoozedUntil {
            json.key("snoozedUntil")
            json.integer(snoozedUntil)
        }
        if let templateID {
            json.key("templateID")
            json.string(templateID)
        }
        json.key("time")
        json.write(time)
        json.key("title")
        json.string(title)
        json.key("xp")
        json.integer(xp)
        json.endObject()
    }
}

extension Template: JSONWritable {
    func write(to json: inout JSONWriter) {
        json.beginObject()
        json.key("firstDay")
        json.write(firstDay)
        json.key("id")
        json.string(id)
        json.key("order")
        json.integer(order)
        json.key("repeatRule")
        json.write(repeatRule)
        json.key("time")
        json.write(time)
        json.key("title")
        json.string(title)
        json.endObject()
    }
}

extension PetWorld: JSONWritable {
    func write(to json: inout JSONWriter) {
        json.beginObject()
        if let lastClosedDay {
            json.key("lastClosedDay")
            json.write(lastClosedDay)
        }
        json.key("mutations")
        json.integer(mutations)
        json.key("openDay")
        json.write(openDay)
        json.key("openDayLive")
        json.bool(openDayLive)
        json.key("openingPet")
        json.write(openingPet)
        json.key("restDays")
        json.array(restDays)
        json.key("serial")
        json.integer(serial)
        json.key("settings")
        json.write(settings)
        if let snapshot {
            json.key("snapshot")
            json.write(snapshot)
        }
        json.key("tasks")
        json.array(tasks)
        json.key("templates")
        json.array(templates)
        json.key("tomorrow")
        json.array(tomorrow)
        json.endObject()
    }
}

extension DayRecord: JSONWritable {
    func write(to json: inout JSONWriter) {
        json.beginObject()
        json.key("day")
        json.write(day)
        json.key("done")
        json.integer(done)
        json.key("petAtClose")
        json.write(petAtClose)
        json.key("petAtOpen")
        json.write(petAtOpen)
        json.key("rate")
        json.double(rate)
        json.key("rest")
        json.bool(rest)
        json.key("resultXP")
        json.integer(resultXP)
        json.key("tasks")
        json.array(tasks)
        json.key("total")
        json.integer(total)
        json.key("xpChange")
        json.integer(xpChange)
        json.endObject()
    }
}
