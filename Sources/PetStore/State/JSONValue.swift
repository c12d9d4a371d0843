import FoundationEssentials

/// Any JSON document, for the migrations that work on the parsed JSON (`Schema`): what
/// `JSONSerialization` gave, which needs full Foundation (and so ICU) on Linux.
enum JSONValue: Decodable, Equatable, JSONWritable {
    case null
    case bool(Bool)
    case integer(Int64)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    init(from decoder: any Decoder) throws {
        let c = try decoder.singleValueContainer()
        if c.decodeNil() {
            self = .null
        } else if let b = try? c.decode(Bool.self) {
            self = .bool(b)
        } else if let i = try? c.decode(Int64.self) {
            // Integers first: instants and counts must come back exactly.
            self = .integer(i)
        } else if let d = try? c.decode(Double.self) {
            self = .number(d)
        } else if let s = try? c.decode(String.self) {
            self = .string(s)
        } else if let a = try? c.decode([JSONValue].self) {
            self = .array(a)
        } else {
            self = .object(try c.decode([String: JSONValue].self))
        }
    }

    /// Written as `JSONEncoder` wrote it: an object's keys sorted by their UTF-8 bytes.
    func write(to json: inout JSONWriter) {
        switch self {
        case .null: json.null()
        case .bool(let b): json.bool(b)
        case .integer(let i): json.integer(i)
        case .number(let d): json.double(d)
        case .string(let s): json.string(s)
        case .array(let a): json.array(a)
        case .object(let o):
            json.beginObject()
            for (key, value) in o.sorted(by: { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }) {
                json.key(key)
                json.write(value)
            }
            json.endObject()
        }
    }

    /// The document's bytes (a NaN or an infinity, which parsing never gives, as `null`).
    var bytes: [UInt8] {
        var json = JSONWriter()
        write(to: &json)
        return json.bytes
    }

    /// The parsed document, or nil when `data` is not JSON.
    static func parse(_ data: Data) -> JSONValue? { try? JSONDecoder().decode(JSONValue.self, from: data) }

    /// The member `key` of an object.
    subscript(key: String) -> JSONValue? {
        guard case .object(let o) = self else { return nil }
        return o[key]
    }

    var object: [String: JSONValue]? {
        guard case .object(let o) = self else { return nil }
        return o
    }
}
