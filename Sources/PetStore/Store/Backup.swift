import FoundationEssentials
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
    /// whose rate is not a number is refused, as history refuses it.
    public func encoded() throws(StoreError) -> [UInt8] {
        var bytes = Array(#"{"\#(Key.history.stringValue)":["#.utf8)
        for (i, record) in history.enumerated() {
            bytes += Array((i == 0 ? "\n" : ",\n").utf8)
            var json = JSONWriter(capacity: 512 + 256 * record.tasks.count)
            json.write(record)
            guard !json.wroteNonFiniteNumber else {
                throw StoreError(.inconsistent, "The record for \(record.day.key) could not be encoded.")
            }
            bytes += json.bytes
        }
        var tail = JSONWriter(capacity: 1024 + 256 * (world.tasks.count + world.tomorrow.count))
        tail.write(world)
        bytes += Array(
            "\(history.isEmpty ? "" : "\n")],\"\(Key.schema.stringValue)\":\(Schema.current),\"\(Key.world.stringValue)\":"
                .utf8)
        return bytes + tail.bytes + [UInt8(ascii: "}")]
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

    /// Reads an export document whole: its `format` must be `format`, its `schema` exactly `schema`
    /// (an older export lacks what a restore needs, a newer one is not understood), and its `store`
    /// member is decoded with the store's own decoders — the same checks as a load — after the
    /// store's migrations when it is older. Then the parts must agree: history ascending, each day
    /// once, none after the last closed day, which is before the open day.
    public static func read(document bytes: [UInt8], format: String, schema: Int) throws(Refusal) -> Backup {
        guard !bytes.isEmpty else { throw Refusal("the file is empty") }
        guard let document = JSONValue.parse(Data(bytes)) else {
            throw Refusal("it is not valid JSON (truncated or damaged)")
        }
        guard case .string(let found)? = document[Key.documentFormat], found == format else {
            throw Refusal("it is not a Pet Progress export (its \"format\" is not \"\(format)\")")
        }
        guard case .integer(let found)? = document[Key.documentSchema] else {
            throw Refusal("it has no export schema version")
        }
        if found > schema {
            throw Refusal(
                "it was written by a newer Pet Progress (export schema \(found); this version reads \(schema))")
        }
        guard found == schema, let store = document[Key.documentStore]?.object else {
            throw Refusal(
                "it is an export of schema \(found), which does not hold everything a restore needs (the opening pet, the counters, the visible snapshot); this version restores exports of schema \(schema)"
            )
        }
        let backup = try decode(store)
        try check(backup)
        return backup
    }

    /// The `store` member, migrated to the current schema when older, through the stored types' decoders.
    private static func decode(_ store: [String: JSONValue]) throws(Refusal) -> Backup {
        guard case .integer(let version)? = store[Key.schema.stringValue] else {
            throw Refusal("its \"store\" has no schema version")
        }
        if version > Int64(Schema.current) {
            throw Refusal(
                "its store was written by a newer Pet Progress (schema \(version); this version reads up to \(Schema.current))"
            )
        }
        guard version >= 0, case .object(var world)? = store[Key.world.stringValue],
            case .array(var records)? = store[Key.history.stringValue]
        else { throw Refusal("its \"store\" lacks the world or the history") }
        if version < Int64(Schema.current) {
            guard let migrated = Schema.migrate(world, from: Int(version), using: Schema.worldMigrations) else {
                throw Refusal("its store's schema \(version) is not one this version can migrate")
            }
            world = migrated
            records = records.map { record in
                record.object.flatMap { Schema.migrate($0, from: Int(version), using: Schema.recordMigrations) }
                    .map(JSONValue.object) ?? record
            }
        }
        let rebuilt = JSONValue.object([
            Key.world.stringValue: .object(world), Key.history.stringValue: .array(records),
        ])
        do {
            let envelope = try JSONDecoder().decode(Envelope.self, from: Data(rebuilt.bytes))
            return Backup(world: envelope.world, history: envelope.history)
        } catch {
            throw Refusal("its \"store\" does not hold a valid state (\(explain(error)))")
        }
    }

    private static func check(_ backup: Backup) throws(Refusal) {
        let world = backup.world
        for (earlier, later) in zip(backup.history, backup.history.dropFirst()) where earlier.day.key >= later.day.key {
            throw Refusal("its history is not in day order (\(earlier.day.key) before \(later.day.key))")
        }
        if let last = backup.history.last?.day.key, !(world.lastClosedDay.map { $0 >= last } ?? false) {
            throw Refusal(
                "its history runs to \(last), past the last closed day (\(world.lastClosedDay.map { "\($0)" } ?? "none"))"
            )
        }
        if let closed = world.lastClosedDay, closed >= world.openDay.key {
            throw Refusal("its last closed day (\(closed)) is not before its open day (\(world.openDay.key))")
        }
    }
}
