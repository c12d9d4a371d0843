import PetCore

/// `state.json`: `{"history":"…","schema":2,"world":{…PetWorld…}}`, written by `JSONWriter`.
/// Decoding tolerates unknown keys and absent optional ones (`Stored/`).
enum StateFile {
    static let name = "state.json"
    static let temporaryName = ".state.json.tmp"

    /// What a state file's bytes turned out to be.
    enum Reading {
        case world(PetWorld, migratedFrom: Int?, tail: HistoryTail?)
        /// Written by a newer build: refuse, touch nothing.
        case newer(Int)
        /// Cannot be used: quarantine it, with this reason.
        case unreadable(String)
    }

    /// The envelope's keys.
    enum Key {
        static var history: StoredKey { StoredKey("history") }
        static var schema: StoredKey { StoredKey("schema") }
        static var world: StoredKey { StoredKey("world") }
    }

    private struct Envelope: Decodable {
        let schema: Int
        let world: PetWorld
        /// Optional: absent in older files and when there is no history.
        var history: HistoryTail?

        init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: StoredKey.self)
            schema = try c.decode(Int.self, forKey: Key.schema)
            world = try c.decode(PetWorld.self, forKey: Key.world)
            history = try c.decodeIfPresent(HistoryTail.self, forKey: Key.history)
        }
    }

    /// The file's bytes, and a newline. A state holds no floating-point number, so this cannot fail.
    static func encode(_ world: PetWorld, tail: HistoryTail? = nil) -> [UInt8] {
        // About 200 bytes a task; the rest of the state is a few hundred.
        var json = JSONWriter(capacity: 1024 + 256 * (world.tasks.count + world.tomorrow.count))
        json.beginObject()
        json.field(Key.history, tail)
        json.field(Key.schema, Schema.current)
        json.field(Key.world, world)
        json.endObject()
        json.newline()
        return json.bytes
    }

    static func decode(_ bytes: [UInt8]) -> Reading {
        if bytes.isEmpty { return .unreadable("the file is empty") }
        guard let document = try? JSONDocument(bytes) else {
            return .unreadable("it is not valid JSON (truncated or damaged)")
        }
        guard let at = document.member(Key.schema.stringValue, of: document.root),
            let schema = document.integer(at: at, as: Int.self)
        else {
            return .unreadable("it is JSON but not a Pet Progress state file (no \"schema\" version)")
        }
        if schema > Schema.current { return .newer(schema) }
        if schema == Schema.current {
            do {
                return consistent(try document.decode(Envelope.self))
            } catch {
                return .unreadable("its contents do not fit the schema \(schema) state: \(explain(error))")
            }
        }
        guard let old = JSONValue(document, at: document.root)[Key.world.stringValue]?.object,
            let migrated = Schema.migrate(old, from: schema, using: Schema.worldMigrations)
        else { return .unreadable("its schema \(schema) is not one this version can migrate") }
        do {
            let json = JSONValue.object([
                Key.schema.stringValue: .integer(Int64(Schema.current)), Key.world.stringValue: .object(migrated),
            ])
            return .world(
                try JSONDocument(json.bytes).decode(Envelope.self).world, migratedFrom: schema, tail: nil)
        } catch {
            return .unreadable("its schema \(schema) contents could not be migrated: \(explain(error))")
        }
    }

    /// A current file's world, unless it contradicts itself: a save records history's last day
    /// beside a last closed day never before it (`save` refuses otherwise), so a file whose last
    /// closed day is earlier, or none, was damaged. Loaded, it would make every later save refuse
    /// (or, trusted, drop the history it names); set aside, the empty start adopts history's end.
    private static func consistent(_ envelope: Envelope) -> Reading {
        let closed = envelope.world.lastClosedDay
        if let recorded = envelope.history?.lastDay, !(closed.map { $0 >= recorded } ?? false) {
            return .unreadable(
                "its last closed day (\(closed.map { "\($0)" } ?? "none")) is before the last day of history it records (\(recorded))"
            )
        }
        return .world(envelope.world, migratedFrom: nil, tail: envelope.history)
    }
}

/// A short reason from a decoding error: which key, and what was wrong.
func explain(_ error: any Error) -> String {
    guard let e = error as? DecodingError else { return "\(error)" }
    func path(_ c: DecodingError.Context) -> String {
        let p = c.codingPath.map { $0.intValue.map(String.init) ?? $0.stringValue }.joined(separator: ".")
        return p.isEmpty ? "the top level" : "\"\(p)\""
    }
    switch e {
    case .keyNotFound(let key, let c): return "\(path(c)) lacks \"\(key.stringValue)\""
    case .typeMismatch(_, let c), .valueNotFound(_, let c), .dataCorrupted(let c):
        return "\(path(c)): \(c.debugDescription)"
    @unknown default: return "\(e)"
    }
}
