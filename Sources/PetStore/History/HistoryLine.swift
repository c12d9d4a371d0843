import PetCore

/// One line of a history file: `{"record":{…DayRecord…},"schema":1}` and a newline.
enum HistoryLine {
    enum Reading {
        case record(DayRecord)
        case newer(Int)
        case unreadable(String)
    }

    /// The line's keys.
    enum Key {
        static var record: StoredKey { StoredKey("record") }
        static var schema: StoredKey { StoredKey("schema") }
    }

    private struct Envelope: Decodable {
        let schema: Int
        let record: DayRecord

        init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: StoredKey.self)
            schema = try c.decode(Int.self, forKey: Key.schema)
            record = try c.decode(DayRecord.self, forKey: Key.record)
        }
    }

    /// The line's bytes, and a newline; a record whose rate is not a number is refused.
    static func encode(_ record: DayRecord) throws(StoreError) -> [UInt8] {
        var json = JSONWriter(capacity: 512 + 256 * record.tasks.count)
        json.beginObject()
        json.field(Key.record, record)
        json.field(Key.schema, Schema.current)
        json.endObject()
        json.newline()
        guard !json.wroteNonFiniteNumber else {
            throw StoreError(
                .inconsistent,
                "The history record for \(record.day.key) could not be encoded: its rate is \(record.rate).")
        }
        return json.bytes
    }

    /// Only the day key of a line: what start-up needs, without materialising the tasks.
    enum DayReading {
        case day(DayKey)
        case newer(Int)
        case unreadable
    }

    /// A line's schema and its record's day key, the rest unread.
    private struct DayProbe: Decodable {
        let schema: Int
        let key: DayKey

        init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: StoredKey.self)
            schema = try c.decode(Int.self, forKey: Key.schema)
            let record = try c.nestedContainer(keyedBy: StoredKey.self, forKey: Key.record)
            let day = try record.nestedContainer(keyedBy: StoredKey.self, forKey: DayRecord.Key.day)
            key = try day.decode(DayKey.self, forKey: Day.Key.key)
        }
    }

    static func day(of bytes: ArraySlice<UInt8>) -> DayReading {
        if let key = fastDay(of: bytes) { return .day(key) }
        // A record's day has had this shape since schema 0, so older lines need no migration for it.
        if let document = try? JSONDocument(Array(bytes)), let probe = try? document.decode(DayProbe.self),
            (0...Schema.current).contains(probe.schema)
        {
            return .day(probe.key)
        }
        switch decode(bytes) {
        case .record(let r): return .day(r.day.key)
        case .newer(let v): return .newer(v)
        case .unreadable: return .unreadable
        }
    }

    /// Decodes one line (without its newline).
    static func decode(_ bytes: ArraySlice<UInt8>) -> Reading {
        guard let document = try? JSONDocument(Array(bytes)),
            let at = document.member(Key.schema.stringValue, of: document.root),
            let schema = document.integer(at: at, as: Int.self)
        else {
            return .unreadable("not a history record")
        }
        if schema > Schema.current { return .newer(schema) }
        if schema == Schema.current {
            do { return .record(try document.decode(Envelope.self).record) } catch {
                return .unreadable(explain(error))
            }
        }
        guard let old = JSONValue(document, at: document.root)[Key.record.stringValue]?.object,
            let migrated = Schema.migrate(old, from: schema, using: Schema.recordMigrations)
        else { return .unreadable("schema \(schema) record that could not be migrated") }
        let json = JSONValue.object([
            Key.schema.stringValue: .integer(Int64(Schema.current)), Key.record.stringValue: .object(migrated),
        ])
        do { return .record(try JSONDocument(json.bytes).decode(Envelope.self).record) } catch {
            return .unreadable("schema \(schema) record that could not be migrated: \(explain(error))")
        }
    }

    private static let prefix = Array(
        #"{"\#(Key.record.stringValue)":{"\#(DayRecord.Key.day.stringValue)":{"\#(Day.Key.end.stringValue)":"#.utf8)
    private static let keyField = Array(#","\#(Day.Key.key.stringValue)":""#.utf8)
    private static let suffix = Array(#","\#(Key.schema.stringValue)":\#(Schema.current)}"#.utf8)

    /// The day key read straight from the bytes of a line this build wrote (sorted keys put
    /// `record.day.end`, then `record.day.key`, first and `schema` last), so start-up need not
    /// parse a whole record. Anything else (older lines, other shapes) returns nil and is parsed.
    static func fastDay(of bytes: ArraySlice<UInt8>) -> DayKey? {
        guard bytes.starts(with: prefix), bytes.reversed().starts(with: suffix.reversed()) else { return nil }
        var i = bytes.startIndex + prefix.count
        while i < bytes.endIndex,
            bytes[i] == UInt8(ascii: "-") || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[i])
        {
            i += 1
        }
        guard bytes[i...].starts(with: keyField) else { return nil }
        let keyStart = i + keyField.count
        guard keyStart + 11 <= bytes.endIndex, bytes[keyStart + 10] == UInt8(ascii: "\"") else { return nil }
        return CivilDate(parsing: String(decoding: bytes[keyStart..<keyStart + 10], as: UTF8.self))
    }
}
