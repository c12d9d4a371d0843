import Foundation
import PetCore

@testable import PetStore

/// The oracle for the store's JSON writer: FoundationEssentials' `JSONEncoder`, configured as the
/// store configured it, over what Swift's synthesized `Encodable` would encode — every stored
/// property under its own name, optionals only when present — read by reflection, so no key
/// name or field list is written out twice. Values with a text form are encoded as that text,
/// as the store writes them (`StoredText`, `HistoryTail`), and `JSONValue` as the JSON it
/// stands for.
struct Reflected: Encodable {
    let value: Any

    static let encoder: JSONEncoder = {
        let e = JSONEncoder()
        e.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return e
    }()

    /// `JSONEncoder`'s bytes for `value`, and the newline the store ends its lines with.
    static func line(_ value: Any) throws -> [UInt8] {
        Array(try encoder.encode(Reflected(value: value))) + [UInt8(ascii: "\n")]
    }

    struct Key: CodingKey {
        let stringValue: String
        init(stringValue: String) { self.stringValue = stringValue }
        var intValue: Int? { nil }
        init?(intValue: Int) { nil }
    }

    struct Unsupported: Error { let what: String }

    func encode(to encoder: any Encoder) throws {
        switch value {
        case let v as Bool: try single(encoder, v)
        case let v as Int: try single(encoder, v)
        case let v as Int64: try single(encoder, v)
        case let v as UInt64: try single(encoder, v)
        case let v as Double: try single(encoder, v)
        case let v as String: try single(encoder, v)
        case let v as any StoredText: try single(encoder, v.description)
        case let v as HistoryTail: try single(encoder, "\(v.year) \(v.length) \(v.lastDay?.description ?? "-")")
        case let v as JSONValue: try encodeJSON(v, to: encoder)
        default: try encodeByMirror(encoder)
        }
    }

    private func single<T: Encodable>(_ encoder: any Encoder, _ v: T) throws {
        var c = encoder.singleValueContainer()
        try c.encode(v)
    }

    private func encodeByMirror(_ encoder: any Encoder) throws {
        let mirror = Mirror(reflecting: value)
        switch mirror.displayStyle {
        case .collection?:
            var c = encoder.unkeyedContainer()
            for child in mirror.children { try c.encode(Reflected(value: child.value)) }
        case .struct?:
            var c = encoder.container(keyedBy: Key.self)
            for child in mirror.children {
                guard let label = child.label else { throw Unsupported(what: "an unlabelled field") }
                let field = Mirror(reflecting: child.value)
                if field.displayStyle == .optional {
                    // Synthesized conformances use encodeIfPresent: nil leaves the key out.
                    if let wrapped = field.children.first?.value {
                        try c.encode(Reflected(value: wrapped), forKey: Key(stringValue: label))
                    }
                } else {
                    try c.encode(Reflected(value: child.value), forKey: Key(stringValue: label))
                }
            }
        default:
            throw Unsupported(what: "\(type(of: value))")
        }
    }

    private func encodeJSON(_ v: JSONValue, to encoder: any Encoder) throws {
        switch v {
        case .null:
            var c = encoder.singleValueContainer()
            try c.encodeNil()
        case .bool(let b): try single(encoder, b)
        case .integer(let i): try single(encoder, i)
        case .number(let d): try single(encoder, d)
        case .string(let s): try single(encoder, s)
        case .array(let a):
            var c = encoder.unkeyedContainer()
            for e in a { try c.encode(Reflected(value: e)) }
        case .object(let o):
            var c = encoder.container(keyedBy: Key.self)
            for (k, e) in o { try c.encode(Reflected(value: e), forKey: Key(stringValue: k)) }
        }
    }
}

/// The state file's envelope as the store encoded it: `schema`, `world`, and `history` when present.
struct OracleStateEnvelope {
    let schema: Int
    let world: PetWorld
    var history: HistoryTail?
}

/// A history line's envelope as the store encoded it.
struct OracleHistoryEnvelope {
    let schema: Int
    let record: DayRecord
}
