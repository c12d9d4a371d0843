import PetCore

/// Any JSON document, for the migrations that work on the parsed JSON (`Schema`): what
/// `JSONSerialization` gave, which needs full Foundation (and so ICU) on Linux.
enum JSONValue: Equatable, JSONWritable {
    case null
    case bool(Bool)
    case integer(Int64)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    /// The value at `index` of a read document (a tree: only migrations of older files build one).
    init(_ document: JSONDocument, at index: Int) {
        switch document.kind(at: index) {
        case .null: self = .null
        case .false: self = .bool(false)
        case .true: self = .bool(true)
        case .number:
            // Integers first: instants and counts must come back exactly.
            if let i = document.integer(at: index, as: Int64.self) {
                self = .integer(i)
            } else {
                self = .number(document.double(at: index) ?? 0)
            }
        case .string: self = .string(document.string(at: index) ?? "")
        case .array: self = .array(document.elements(of: index).map { JSONValue(document, at: $0) })
        case .object:
            var o: [String: JSONValue] = [:]
            for (key, value) in document.members(of: index) {
                o[document.string(at: key) ?? ""] = JSONValue(document, at: value)
            }
            self = .object(o)
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

    /// The parsed document, or nil when `bytes` are not JSON.
    static func parse(_ bytes: some Collection<UInt8>) -> JSONValue? {
        guard let document = try? JSONDocument(Array(bytes)) else { return nil }
        return JSONValue(document, at: document.root)
    }

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
