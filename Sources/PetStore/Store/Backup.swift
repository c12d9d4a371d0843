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

    /// Reads an export document: its `format` must be `format`, its `schema` exactly `schema`
    /// (an older export lacks what a restore needs, a newer one is not understood), and its `store`
    /// member is decoded with the store's own decoders — the same checks as a load — after the
    /// store's migrations when it is older. Then the parts must agree: history ascending, each day
    /// once, none after the last closed day, which is before the open day. The document is read
    /// once by `JSONDocument` (linear, at most 64 deep, no key twice in an object) and decoded
    /// from its tokens; only an older store is made a tree, for its migrations.
    public static func read(document bytes: [UInt8], format: String, schema: Int) throws(Refusal) -> Backup {
        guard !bytes.isEmpty else { throw Refusal("the file is empty") }
        let document: JSONDocument
        do {
            document = try JSONDocument(bytes)
        } catch {
            throw Refusal(sentence(error))
        }
        let root = document.root
        guard let at = document.member(Key.documentFormat, of: root), document.string(at: at) == format else {
            throw Refusal("it is not a Pet Progress export (its \"format\" is not \"\(format)\")")
        }
        guard let at = document.member(Key.documentSchema, of: root), let found = document.integer(at: at, as: Int64.self)
        else {
            throw Refusal("it has no export schema version")
        }
        if found > schema {
            throw Refusal(
                "it was written by a newer Pet Progress (export schema \(found); this version reads \(schema))")
        }
        guard found == schema, let store = document.member(Key.documentStore, of: root),
            document.kind(at: store) == .object
        else {
            throw Refusal(
                "it is an export of schema \(found), which does not hold everything a restore needs (the opening pet, the counters, the visible snapshot); this version restores exports of schema \(schema)"
            )
        }
        let backup = try decode(document, store: store)
        try check(backup)
        return backup
    }

    /// Why a document is not JSON this reader takes, as a refusal's sentence.
    static func sentence(_ error: JSONReadError) -> String {
        if error.problem.hasPrefix("an object holds the key") {
            return "\(error.problem) (at byte \(error.offset)), so it is not an export: tools disagree on which copy counts"
        }
        if error.problem.hasPrefix("it nests deeper") { return "\(error.problem) (at byte \(error.offset))" }
        return "it is not valid JSON (truncated or damaged: \(error.problem) at byte \(error.offset))"
    }

    /// The `store` member: decoded straight from the document's tokens when current; when
    /// older, migrated to the current schema first through the stored types' decoders.
    private static func decode(_ document: JSONDocument, store: Int) throws(Refusal) -> Backup {
        guard let at = document.member(Key.schema.stringValue, of: store),
            let version = document.integer(at: at, as: Int64.self)
        else {
            throw Refusal("its \"store\" has no schema version")
        }
        if version > Int64(Schema.current) {
            throw Refusal(
                "its store was written by a newer Pet Progress (schema \(version); this version reads up to \(Schema.current))"
            )
        }
        guard version >= 0, let worldAt = document.member(Key.world.stringValue, of: store),
            document.kind(at: worldAt) == .object, let historyAt = document.member(Key.history.stringValue, of: store),
            document.kind(at: historyAt) == .array
        else { throw Refusal("its \"store\" lacks the world or the history") }
        do {
            if version == Int64(Schema.current) {
                let envelope = try document.decode(Envelope.self, at: store)
                return Backup(world: envelope.world, history: envelope.history)
            }
        } catch {
            throw Refusal("its \"store\" does not hold a valid state (\(explain(error)))")
        }
        guard case .object(var world) = JSONValue(document, at: worldAt),
            case .array(var records) = JSONValue(document, at: historyAt)
        else { throw Refusal("its \"store\" lacks the world or the history") }
        guard let migrated = Schema.migrate(world, from: Int(version), using: Schema.worldMigrations) else {
            throw Refusal("its store's schema \(version) is not one this version can migrate")
        }
        world = migrated
        records = records.map { record in
            record.object.flatMap { Schema.migrate($0, from: Int(version), using: Schema.recordMigrations) }
                .map(JSONValue.object) ?? record
        }
        let rebuilt = JSONValue.object([
            Key.world.stringValue: .object(world), Key.history.stringValue: .array(records),
        ])
        do {
            let envelope = try JSONDocument(rebuilt.bytes).decode(Envelope.self)
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
