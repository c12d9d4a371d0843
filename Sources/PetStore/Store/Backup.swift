import PetCore

/// What a restore needs, as an export carries it (petprogress(7) §5 "Import", §7): the state exactly as
/// `state.json` holds it and every history record, in the store's own keys and schema, so a field
/// the store gains is exported and restored without a second definition of it:
/// `{"history":[…one record a line…],"schema":N,"world":{…}}`, the export's `store` member.
public struct Backup: Sendable {
    public var world: PetWorld
    /// The closed days' records, ascending.
    public var history: [DayRecord]

    public init(world: PetWorld, history: [DayRecord]) {
        self.world = world
        self.history = history
    }

    /// The keys of the `store` member, and of the export document around it that a restore reads.
    enum Key {
        static var history: StoredKey { StoredKey("history") }
        static var schema: StoredKey { StoredKey("schema") }
        static var world: StoredKey { StoredKey("world") }
        static let documentFormat = "format"
        static let documentSchema = "schema"
        static let documentStore = "store"
    }

    /// The `store` member's bytes: one history record a line, so an export diffs well. A record
    /// whose rate is not a number is refused, as history refuses it. The same bytes as the pages
    /// of ``encodedHead``, ``encoded(_:first:)`` and ``encodedTail(world:hadHistory:)`` together.
    public func encoded() throws(StoreError) -> [UInt8] {
        var bytes = Self.encodedHead
        for (i, record) in history.enumerated() { bytes += try Self.encoded(record, first: i == 0) }
        return bytes + Self.encodedTail(world: world, hadHistory: !history.isEmpty)
    }

    /// The `store` member's opening, before its first history record.
    public static var encodedHead: [UInt8] { Array(#"{"\#(Key.history.stringValue)":["#.utf8) }

    /// One history record of the `store` member, on a line of its own (after a comma unless it is
    /// the `first`).
    public static func encoded(_ record: DayRecord, first: Bool) throws(StoreError) -> [UInt8] {
        var json = JSONWriter(capacity: 512 + 256 * record.tasks.count)
        json.write(record)
        guard !json.wroteNonFiniteNumber else {
            throw StoreError(.inconsistent, "The record for \(record.day.key) could not be encoded.")
        }
        return Array((first ? "\n" : ",\n").utf8) + json.bytes
    }

    /// The `store` member's end, after its last history record: the schema and the world.
    public static func encodedTail(world: PetWorld, hadHistory: Bool) -> [UInt8] {
        var tail = JSONWriter(capacity: 1024 + 256 * (world.tasks.count + world.tomorrow.count))
        tail.write(world)
        let between =
            "\(hadHistory ? "\n" : "")],\"\(Key.schema.stringValue)\":\(Schema.current),"
            + "\"\(Key.world.stringValue)\":"
        return Array(between.utf8) + tail.bytes + [UInt8(ascii: "}")]
    }

    /// Why a document cannot be restored: one sentence's worth, without a full stop.
    public struct Refusal: Error, Sendable {
        public let message: String
        public init(_ message: String) { self.message = message }
    }

    private struct Envelope: Decodable {
        let world: PetWorld
        let history: [DayRecord]

        init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: StoredKey.self)
            world = try c.decode(PetWorld.self, forKey: Key.world)
            history = try c.decode([DayRecord].self, forKey: Key.history)
        }
    }

    /// Reads an export document whole into a `Backup` (its records kept in memory): `read(mapped:…)`
    /// collecting the records.
    public static func read(document bytes: [UInt8], format: String, schema: Int) throws(Refusal) -> Backup {
        var history: [DayRecord] = []
        let read = bytes.withUnsafeBytes { raw in
            Result { () throws(Refusal) in
                try Self.read(mapped: raw, format: format, schema: schema) { (record) throws(Refusal) in
                    history.append(record)
                }
            }
        }
        return Backup(world: try read.get().world, history: history)
    }

    /// What a streamed read found besides the records it handed on.
    public struct Streamed: Sendable {
        public var world: PetWorld
        public var days = 0
        public var tasks = 0
        public var firstDay: DayKey?
        public var lastDay: DayKey?
    }

    /// Reads an export document: its `format` must be `format`, its `schema` exactly `schema`
    /// (an older export lacks what a restore needs, a newer one is not understood), and its `store`
    /// member is decoded with the store's own decoders — the same checks as a load — after the
    /// store's migrations when it is older. Then the parts must agree: history ascending, each day
    /// once, none after the last closed day, which is before the open day. The document is read
    /// once by `JSONStream` (linear, at most 64 deep, no key twice in an object), which keeps no
    /// tokens of what it has passed; each history record is then read from its own bytes, checked
    /// and handed to `record` in day order, and dropped (petprogress(7) §5: memory that does not
    /// grow with the history, beyond 16 bytes a day for the records' places). `bytes` may be a
    /// mapped file.
    public static func read(
        mapped bytes: UnsafeRawBufferPointer, format: String, schema: Int,
        record: (DayRecord) throws(Refusal) -> Void
    ) throws(Refusal) -> Streamed {
        guard !bytes.isEmpty else { throw Refusal("the file is empty") }
        final class Places {
            var documentFormat: Range<Int>?
            var documentSchema: Range<Int>?
            var store: Range<Int>?
            var storeSchema: Range<Int>?
            var world: Range<Int>?
            var history: Range<Int>?
            var records: [Range<Int>] = []
        }
        let places = Places()
        do {
            try JSONStream.read(bytes, depth: 3) { span in
                let range = span.start..<span.end
                switch span.path.count {
                case 1:
                    switch span.path[0] ?? "" {
                    case Key.documentFormat: places.documentFormat = range
                    case Key.documentSchema: places.documentSchema = range
                    case Key.documentStore: places.store = range
                    default: break
                    }
                case 2 where span.path[0] == Key.documentStore:
                    switch span.path[1] ?? "" {
                    case Key.schema.stringValue: places.storeSchema = range
                    case Key.world.stringValue: places.world = range
                    case Key.history.stringValue: places.history = range
                    default: break
                    }
                case 3 where span.path[0] == Key.documentStore && span.path[1] == Key.history.stringValue:
                    places.records.append(range)
                default: break
                }
            }
        } catch {
            throw Refusal(sentence(error))
        }
        // A record's places are only the store's when the store and its history are what they
        // seem (an object and an array); otherwise refused below before any is read.
        func document(_ range: Range<Int>) -> JSONDocument? {
            try? JSONDocument(Array(bytes[range]))
        }
        guard let at = places.documentFormat, let found = document(at), found.string(at: 0) == format else {
            throw Refusal("it is not a Pet Progress export (its \"format\" is not \"\(format)\")")
        }
        guard let at = places.documentSchema, let version = document(at)?.integer(at: 0, as: Int64.self) else {
            throw Refusal("it has no export schema version")
        }
        if version > schema {
            throw Refusal(
                "it was written by a newer Pet Progress (export schema \(version); this version reads \(schema))")
        }
        guard version == schema, let store = places.store, bytes[store.lowerBound] == UInt8(ascii: "{") else {
            throw Refusal(
                "it is an export of schema \(version), which does not hold everything a restore needs (the opening pet, the counters, the visible snapshot); this version restores exports of schema \(schema)"
            )
        }
        guard let at = places.storeSchema, let storeVersion = document(at)?.integer(at: 0, as: Int64.self) else {
            throw Refusal("its \"store\" has no schema version")
        }
        if storeVersion > Int64(Schema.current) {
            throw Refusal(
                "its store was written by a newer Pet Progress (schema \(storeVersion); this version reads up to \(Schema.current))"
            )
        }
        guard storeVersion >= 0, let worldAt = places.world, bytes[worldAt.lowerBound] == UInt8(ascii: "{"),
            let historyAt = places.history, bytes[historyAt.lowerBound] == UInt8(ascii: "[")
        else { throw Refusal("its \"store\" lacks the world or the history") }
        let world: PetWorld = try decodeMigrated(
            Array(bytes[worldAt]), from: Int(storeVersion), using: Schema.worldMigrations, what: Key.world.stringValue)
        var streamed = Streamed(world: world)
        for (i, range) in places.records.enumerated() {
            let day: DayRecord = try decodeMigrated(
                Array(bytes[range]), from: Int(storeVersion), using: Schema.recordMigrations,
                what: "\(Key.history.stringValue).\(i)")
            if let last = streamed.lastDay, last >= day.day.key {
                throw Refusal("its history is not in day order (\(last) before \(day.day.key))")
            }
            if streamed.firstDay == nil { streamed.firstDay = day.day.key }
            streamed.lastDay = day.day.key
            streamed.days += 1
            streamed.tasks += day.tasks.count
            try record(day)
        }
        try check(world: world, lastRecord: streamed.lastDay)
        return streamed
    }

    /// One part of the store (the world or a record) from its bytes: decoded with the stored
    /// type's decoder when current; when older, migrated to the current schema first.
    private static func decodeMigrated<T: Decodable>(
        _ bytes: [UInt8], from version: Int, using migrations: [Int: @Sendable (Schema.Object) -> Schema.Object],
        what: String
    ) throws(Refusal) -> T {
        func invalid(_ error: any Error) -> Refusal {
            Refusal("its \"store\" does not hold a valid state (\"\(what)\": \(explain(error)))")
        }
        do {
            let document = try JSONDocument(bytes)
            if version == Schema.current { return try document.decode(T.self) }
            guard case .object(let object) = JSONValue(document, at: 0),
                let migrated = Schema.migrate(object, from: version, using: migrations)
            else {
                throw Refusal("its store's schema \(version) is not one this version can migrate")
            }
            return try JSONDocument(JSONValue.object(migrated).bytes).decode(T.self)
        } catch let refusal as Refusal {
            throw refusal
        } catch {
            throw invalid(error)
        }
    }

    /// Why a document is not JSON this reader takes, as a refusal's sentence.
    static func sentence(_ error: JSONReadError) -> String {
        if error.problem.hasPrefix("an object holds the key") {
            return
                "\(error.problem) (at byte \(error.offset)), so it is not an export: tools disagree on which copy counts"
        }
        if error.problem.hasPrefix("it nests deeper") { return "\(error.problem) (at byte \(error.offset))" }
        return "it is not valid JSON (truncated or damaged: \(error.problem) at byte \(error.offset))"
    }

    private static func check(world: PetWorld, lastRecord last: DayKey?) throws(Refusal) {
        if let last, !(world.lastClosedDay.map { $0 >= last } ?? false) {
            throw Refusal(
                "its history runs to \(last), past the last closed day (\(world.lastClosedDay.map { "\($0)" } ?? "none"))"
            )
        }
        if let closed = world.lastClosedDay, closed >= world.openDay.key {
            throw Refusal("its last closed day (\(closed)) is not before its open day (\(world.openDay.key))")
        }
    }
}
